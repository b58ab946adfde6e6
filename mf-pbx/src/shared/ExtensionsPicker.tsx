import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OrderedPicker } from './OrderedPicker';
import { targetsOf, useDestinations } from './pbx.api';
import { PBX_NS } from './pbx.i18n';

export interface ExtensionsPickerProps {
  /** Field name: test ids `field-<name>` (the list), `field-<name>-add` (the select that adds one). */
  name: string;
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  required?: boolean;
}

/**
 * The tenant's extensions in an order the user sets (the hunt order of ring groups and queues):
 * pick one to append it, move it up or down, remove it. Extensions come from the "direct"
 * destinations: every extension of the tenant, whoever may read the subscriber list.
 */
export function ExtensionsPicker(p: ExtensionsPickerProps) {
  const { t } = useTranslation(PBX_NS);
  const destinations = useDestinations();
  const all = useMemo(() => targetsOf(destinations.data ?? [], 'direct'), [destinations.data]);
  const labelOf = (ext: string) => all.find((o) => o.value === ext)?.label ?? (destinations.isSuccess ? t('extensions.gone', { extension: ext }) : ext);
  return (
    <OrderedPicker name={p.name} label={p.label} required={p.required} value={p.value} onChange={p.onChange} options={all} labelOf={labelOf} itemAttr="data-extension"
      message={p.error ?? destinations.error?.message}
      text={{
        empty: t('extensions.empty'), add: t('extensions.add'),
        up: (extension) => t('extensions.up', { extension }), down: (extension) => t('extensions.down', { extension }), remove: (extension) => t('extensions.remove', { extension }),
        hint: p.value.length > 1 ? t('extensions.orderHint') : undefined,
      }} />
  );
}
