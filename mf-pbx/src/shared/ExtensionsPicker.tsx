import { useMemo } from 'react';
import { Button, Caption1, Label, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular, DismissRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { addItem, moveItem, removeAt } from './orderedList';
import { targetsOf, useDestinations } from './pbx.api';
import { PBX_NS } from './pbx.i18n';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '6px' },
  list: { display: 'flex', flexDirection: 'column', gap: '4px', margin: 0, padding: 0, listStyle: 'none' },
  item: {
    display: 'flex', alignItems: 'center', gap: '8px', padding: '4px 8px',
    border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, background: tokens.colorNeutralBackground2,
  },
  pos: { width: '24px', color: tokens.colorNeutralForeground3, textAlign: 'right' },
  name: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1 },
});

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
  const s = useStyles();
  const { t } = useTranslation(PBX_NS);
  const destinations = useDestinations();
  const all = useMemo(() => targetsOf(destinations.data ?? [], 'direct'), [destinations.data]);
  const labelOf = (ext: string) => all.find((o) => o.value === ext)?.label ?? (destinations.isSuccess ? t('extensions.gone', { extension: ext }) : ext);
  const left = all.filter((o) => !p.value.includes(o.value));
  const message = p.error ?? destinations.error?.message;
  const labelId = `${p.name}-label`;

  return (
    <div role="group" aria-labelledby={labelId} className={s.root}>
      <Label id={labelId} required={p.required}>{p.label}</Label>
      {p.value.length === 0 ? (
        <Text className={s.muted} data-testid={`field-${p.name}`}>{t('extensions.empty')}</Text>
      ) : (
        <ol className={s.list} data-testid={`field-${p.name}`}>
          {p.value.map((ext, i) => (
            <li key={ext} className={s.item} data-testid={`field-${p.name}-item`} data-extension={ext}>
              <span className={s.pos}>{i + 1}.</span>
              <span className={s.name}>{labelOf(ext)}</span>
              <Button size="small" appearance="subtle" icon={<ArrowUpRegular />} disabled={i === 0}
                aria-label={t('extensions.up', { extension: ext })} onClick={() => p.onChange(moveItem(p.value, i, -1))} data-testid="move-up" />
              <Button size="small" appearance="subtle" icon={<ArrowDownRegular />} disabled={i === p.value.length - 1}
                aria-label={t('extensions.down', { extension: ext })} onClick={() => p.onChange(moveItem(p.value, i, 1))} data-testid="move-down" />
              <Button size="small" appearance="subtle" icon={<DismissRegular />}
                aria-label={t('extensions.remove', { extension: ext })} onClick={() => p.onChange(removeAt(p.value, i))} data-testid="remove" />
            </li>
          ))}
        </ol>
      )}
      <Select aria-label={t('extensions.add')} value="" disabled={left.length === 0}
        onChange={(_, d) => d.value && p.onChange(addItem(p.value, d.value))} data-testid={`field-${p.name}-add`}>
        <option value="">{t('extensions.add')}</option>
        {left.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </Select>
      {p.value.length > 1 && <Caption1 className={s.muted}>{t('extensions.orderHint')}</Caption1>}
      {message && <Text role="alert" className={s.error}>{message}</Text>}
    </div>
  );
}
