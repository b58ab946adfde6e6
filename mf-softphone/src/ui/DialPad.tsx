import { useState, type FormEvent } from 'react';
import { Button, Tooltip } from '@fluentui/react-components';
import { CallRegular, DialpadRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { NS } from '../i18n';
import { BarPopover, NumberField } from './BarPopover';
import { useSoftphoneStyles } from './styles';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'];

/**
 * Dial pad popover: a number to call when idle; during a call the keys send DTMF instead.
 */
export function DialPad({ inCall, canCall, onCall, onDtmf }: { inCall: boolean; canCall: boolean; onCall: (n: string) => void; onDtmf: (k: string) => void }) {
  const { t } = useTranslation(NS);
  const s = useSoftphoneStyles();
  const [open, setOpen] = useState(false);
  const [number, setNumber] = useState('');
  const press = (k: string) => (inCall ? onDtmf(k) : setNumber((n) => n + k));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!number.trim() || !canCall) return;
    onCall(number.trim());
    setOpen(false);
  };
  return (
    <BarPopover label={t('dialPad')} icon={<DialpadRegular />} testId="softphone-dialpad-toggle" open={open} onOpenChange={setOpen}>
      <form className={s.surface} onSubmit={submit} data-testid="softphone-dialpad">
        {!inCall && (
          <NumberField label={t('number')} value={number} onChange={setNumber} placeholder={t('numberPlaceholder')} testId="softphone-number" />
        )}
        <div className={s.pad}>
          {KEYS.map((k) => <Button key={k} className={s.key} onClick={() => press(k)} data-testid={`softphone-key-${k === '*' ? 'star' : k === '#' ? 'hash' : k}`}>{k}</Button>)}
        </div>
        {!inCall && (
          <Tooltip content={canCall ? t('call') : t('cannotCall')} relationship="description">
            <Button type="submit" appearance="primary" icon={<CallRegular />} disabledFocusable={!canCall || !number} data-testid="softphone-call">
              {t('call')}
            </Button>
          </Tooltip>
        )}
      </form>
    </BarPopover>
  );
}
