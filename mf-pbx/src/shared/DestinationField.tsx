import { useId, useMemo } from 'react';
import { Field, Input, Select, makeStyles } from '@fluentui/react-components';
import { DESTINATION_LABELS, DESTINATION_VALUES, type Destination, type DestinationValue } from '@tongdai/contracts';
import { targetsOf, useDestinations } from './pbx.api';

const useStyles = makeStyles({
  row: { display: 'flex', gap: '8px', minWidth: 0 },
  // On each control: Fluent's Select/Input roots keep their own width otherwise and overflow the cell.
  part: { flex: '1 1 0', minWidth: 0 },
});

export interface DestinationFieldProps {
  /** Field name: test ids are `field-<name>-type` and `field-<name>-target`. */
  name: string;
  label: string;
  value: Destination | null;
  onChange: (value: Destination | null) => void;
  error?: string;
  required?: boolean;
  /** Label of the empty type choice when the destination is optional (null = hang up). */
  noneLabel?: string;
}

/**
 * A destination (SPEC §9 option values): first its type, then one of the tenant's objects of that
 * type from GET /partner/destinations, or a typed number for "fw" (forward to an external number).
 */
export function DestinationField(p: DestinationFieldProps) {
  const s = useStyles();
  // Own ids: inside one Field every Fluent control would otherwise take the Field's one id.
  const id = useId();
  const destinations = useDestinations();
  const type = p.value?.type ?? '';
  const current = p.value?.target ?? '';
  // A saved target that is no longer offered (renamed, deleted) still shows, so the user sees what to change.
  const targets = useMemo(() => {
    const list = targetsOf(destinations.data ?? [], type);
    return current && type !== 'fw' && !list.some((t) => t.value === current) ? [...list, { value: current, label: current }] : list;
  }, [destinations.data, type, current]);
  const message = p.error ?? (destinations.error ? destinations.error.message : undefined);
  const setType = (t: string) => p.onChange(t ? { type: t as DestinationValue, target: '' } : null);
  return (
    <Field label={p.label} required={p.required} validationMessage={message} validationState={message ? 'error' : 'none'}>
      <div className={s.row}>
        <Select id={`${id}-type`} className={s.part} aria-label={`${p.label}: loại`} value={type} onChange={(_, d) => setType(d.value)} data-testid={`field-${p.name}-type`}>
          <option value="">{p.noneLabel ?? 'Chọn loại điểm đến'}</option>
          {DESTINATION_VALUES.map((v) => <option key={v} value={v}>{DESTINATION_LABELS[v]}</option>)}
        </Select>
        {type === 'fw' ? (
          <Input id={`${id}-target`} className={s.part} aria-label={`${p.label}: số điện thoại`} inputMode="tel" placeholder="Số điện thoại" value={p.value?.target ?? ''}
            onChange={(_, d) => p.onChange({ type: 'fw', target: d.value })} data-testid={`field-${p.name}-target`} />
        ) : (
          <Select id={`${id}-target`} className={s.part} aria-label={`${p.label}: điểm đến`} value={p.value?.target ?? ''} disabled={!type}
            onChange={(_, d) => p.value && p.onChange({ type: p.value.type, target: d.value })} data-testid={`field-${p.name}-target`}>
            <option value="">{type && targets.length === 0 && !destinations.isLoading ? 'Chưa có đối tượng nào' : 'Chọn điểm đến'}</option>
            {targets.map((t) => <option key={t.value} value={t.value}>{t.label}</option>)}
          </Select>
        )}
      </div>
    </Field>
  );
}
