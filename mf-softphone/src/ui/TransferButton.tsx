import { useId, useState, type FormEvent } from 'react';
import { Button } from '@fluentui/react-components';
import { ArrowForwardRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { DirectoryEntry } from '@tongdai/contracts';
import { NS } from '../i18n';
import { BarPopover, NumberField } from './BarPopover';
import { useSoftphoneStyles } from './styles';
import { useDirectory } from './useDirectory';

/**
 * Blind transfer: a number (the tenant's extensions are suggested) and "Chuyển". Once the other
 * side accepts, this phone leaves the call.
 */
export function TransferButton({ own, loadTargets, onTransfer }: { own?: string; loadTargets: () => Promise<DirectoryEntry[]>; onTransfer: (target: string) => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState('');
  const targets = useDirectory(loadTargets, open);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target) return;
    onTransfer(target);
    setOpen(false);
    setTarget('');
  };
  return (
    <BarPopover label={t('transfer')} icon={<ArrowForwardRegular />} testId="softphone-transfer" open={open} onOpenChange={setOpen}>
      <form className={s.surface} onSubmit={submit} data-testid="softphone-transfer-form">
        <NumberField label={t('transferTarget')} value={target} onChange={setTarget} placeholder={t('transferPlaceholder')} testId="softphone-transfer-target" list={listId} />
        <datalist id={listId}>
          {(targets.data ?? []).filter((x) => x.extension !== own).map((x) => <option key={x.extension} value={x.extension}>{x.display_name}</option>)}
        </datalist>
        <Button type="submit" appearance="primary" icon={<ArrowForwardRegular />} disabledFocusable={!target} data-testid="softphone-transfer-submit">{t('transferSubmit')}</Button>
      </form>
    </BarPopover>
  );
}
