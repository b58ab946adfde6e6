import { Select } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { EntityFilter } from './types';

export interface SelectFilterSpec {
  key: string;
  ns: string;
  /** i18n keys of the control's name and of its "all" option. */
  label: string;
  all: string;
  testId: string;
  /** The choices (a hook); null hides the control (e.g. the roles to one who may not read them). */
  useOptions: () => readonly { value: string | number; label: string }[] | null;
}

/** A list filter as a dropdown, kept in ?<key>= (the kit's EntityFilter). */
export function selectFilter(spec: SelectFilterSpec): EntityFilter {
  function Control({ value, onChange }: { value: string; onChange: (value: string) => void }) {
    const { t } = useTranslation(spec.ns);
    const options = spec.useOptions();
    if (!options) return null;
    return (
      <Select value={value} onChange={(_, d) => onChange(d.value)} aria-label={t(spec.label)} data-testid={spec.testId}>
        <option value="">{t(spec.all)}</option>
        {options.map((o) => <option key={o.value} value={String(o.value)}>{o.label}</option>)}
      </Select>
    );
  }
  return { key: spec.key, Control };
}
