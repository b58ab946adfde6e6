import { useMemo } from 'react';
import { Field, Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PBX_RESOURCES, type AudioFile, type PbxNumber } from '@tongdai/contracts';
import { useApiError, type FieldProps } from '@tongdai/ui';
import { usePbxAll } from './pbx.api';
import { PBX_NS } from './pbx.i18n';

export type Source = 'did' | 'greeting' | 'moh';

interface Option {
  value: string;
  label: string;
}

/**
 * Options of a select fed by the tenant's own rows: numbers (DID, by the digits), greetings (by id),
 * music-on-hold classes (the distinct classes of the uploaded files; "" = the default class).
 */
function useSourceOptions(source: Source) {
  const numbers = usePbxAll<PbxNumber>(PBX_RESOURCES.number, source === 'did');
  const greetings = usePbxAll<AudioFile>(PBX_RESOURCES.greeting, source === 'greeting');
  const moh = usePbxAll<AudioFile>(PBX_RESOURCES.moh, source === 'moh');
  const query = source === 'did' ? numbers : source === 'greeting' ? greetings : moh;
  const options = useMemo((): Option[] => {
    if (source === 'did') return (numbers.data ?? []).map((n) => ({ value: n.number, label: n.description ? `${n.number} — ${n.description}` : n.number }));
    if (source === 'greeting') return (greetings.data ?? []).map((g) => ({ value: String(g.id), label: g.name }));
    const classes = [...new Set((moh.data ?? []).map((m) => m.moh_class).filter(Boolean))].sort((a, b) => a.localeCompare(b, 'vi'));
    return classes.map((c) => ({ value: c, label: c }));
  }, [source, numbers.data, greetings.data, moh.data]);
  return { query, options };
}

export type SourceSelectProps = FieldProps & { source: Source };

/** A select of the tenant's numbers, greetings or music-on-hold classes, with its own loading error. */
export function SourceSelect(p: SourceSelectProps) {
  const { t } = useTranslation(PBX_NS);
  const { query, options } = useSourceOptions(p.source);
  const loadError = useApiError(query.error);
  // A saved value the list no longer has (deleted greeting, renamed class) still shows.
  const shown = p.value && !options.some((o) => o.value === p.value) && query.isSuccess ? [...options, { value: p.value, label: p.value }] : options;
  const empty = p.source === 'moh' ? t('moh.default')
    : p.source === 'did' ? t('did.choose')
    : p.required ? t('greeting.choose') : t('greeting.none');
  const hint = p.source === 'did' && query.isSuccess && options.length === 0 ? t('did.empty') : undefined;
  const message = p.error ?? (loadError ? t('loadFailed', { message: loadError.message }) : undefined);
  return (
    <Field label={p.label} required={p.required} hint={hint} validationMessage={message} validationState={message ? 'error' : 'none'}>
      <Select name={p.name} value={p.value} onChange={(_, d) => p.onChange(d.value)} data-testid={`field-${p.name}`}>
        <option value="">{empty}</option>
        {shown.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </Select>
    </Field>
  );
}
