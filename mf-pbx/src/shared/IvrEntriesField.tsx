import { Button, Field, Label, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { IVR_DIGITS } from '@tongdai/contracts';
import type { Destination } from '@tongdai/contracts';
import { errorOf, type FieldErrors } from '@tongdai/ui';
import { DestinationField } from './DestinationField';
import { removeAt } from './orderedList';
import { PBX_NS } from './pbx.i18n';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px' },
  row: { display: 'grid', gridTemplateColumns: '96px 1fr auto', gap: '8px', alignItems: 'end' },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

export interface IvrEntryDraft {
  digit: string;
  destination: Destination | null;
}

/** The next digit nobody uses yet, in keypad order ("" when all twelve are taken). */
export const nextFreeDigit = (entries: readonly IvrEntryDraft[]): string => IVR_DIGITS.find((d) => !entries.some((e) => e.digit === d)) ?? '';

export interface IvrEntriesFieldProps {
  name: string;
  label: string;
  value: IvrEntryDraft[];
  onChange: (value: IvrEntryDraft[]) => void;
  /** All the form's errors: rows read "<name>.<i>.digit" and "<name>.<i>.destination". */
  errors: FieldErrors;
}

/** IVR menu entries: a digit (0–9, *, #) and where it sends the caller; rows are added and removed. */
export function IvrEntriesField(p: IvrEntriesFieldProps) {
  const s = useStyles();
  const { t } = useTranslation(PBX_NS);
  const update = (i: number, patch: Partial<IvrEntryDraft>) => p.onChange(p.value.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const listError = p.errors[p.name];
  const labelId = `${p.name}-label`;
  return (
    <div role="group" aria-labelledby={labelId} className={s.root} data-testid={`field-${p.name}`}>
      <Label id={labelId}>{p.label}</Label>
      {p.value.length === 0 && <Text className={s.muted}>{t('entries.empty')}</Text>}
      {p.value.map((e, i) => {
        const digitError = errorOf(p.errors, `${p.name}.${i}.digit`);
        return (
          <div key={i} className={s.row} data-testid={`${p.name}-row`}>
            <Field label={t('entries.digit')} validationMessage={digitError} validationState={digitError ? 'error' : 'none'}>
              <Select value={e.digit} onChange={(_, d) => update(i, { digit: d.value })} data-testid={`field-${p.name}-${i}-digit`}>
                <option value="">—</option>
                {IVR_DIGITS.map((d) => <option key={d} value={d}>{d}</option>)}
              </Select>
            </Field>
            <DestinationField name={`${p.name}-${i}-destination`} label={t('entries.destination')} required value={e.destination}
              onChange={(d) => update(i, { destination: d })} error={errorOf(p.errors, `${p.name}.${i}.destination`)} />
            <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t('entries.remove', { digit: e.digit || '—' })}
              onClick={() => p.onChange(removeAt(p.value, i))} data-testid={`${p.name}-remove`} />
          </div>
        );
      })}
      <div>
        <Button icon={<AddRegular />} disabled={p.value.length >= IVR_DIGITS.length}
          onClick={() => p.onChange([...p.value, { digit: nextFreeDigit(p.value), destination: null }])} data-testid={`${p.name}-add`}>
          {t('entries.add')}
        </Button>
      </div>
      {listError && <Text role="alert" className={s.error}>{listError}</Text>}
    </div>
  );
}
