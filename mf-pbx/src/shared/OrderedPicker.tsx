import { Button, Caption1, Label, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownRegular, ArrowUpRegular, DismissRegular } from '@fluentui/react-icons';
import { addItem, moveItem, removeAt } from './orderedList';

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

export interface OrderedPickerProps {
  /** Field name: test ids `field-<name>` (the list), `field-<name>-item`, `field-<name>-add` (the select that adds one). */
  name: string;
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  required?: boolean;
  /** What may be added (those already chosen are left out). */
  options: readonly { value: string; label: string }[];
  /** The name of a chosen value (one the options no longer have too). */
  labelOf: (value: string) => string;
  /** Attribute each item carries its value in ("data-extension"). */
  itemAttr: `data-${string}`;
  text: { empty: string; add: string; up: (name: string) => string; down: (name: string) => string; remove: (name: string) => string; hint?: string };
  message?: string;
}

/**
 * Values in an order the user sets (a hunt order, a failover order): pick one to append it, move
 * it up or down, remove it; every change is a new list (orderedList.ts).
 */
export function OrderedPicker(p: OrderedPickerProps) {
  const s = useStyles();
  const left = p.options.filter((o) => !p.value.includes(o.value));
  const labelId = `${p.name}-label`;
  return (
    <div role="group" aria-labelledby={labelId} className={s.root}>
      <Label id={labelId} required={p.required}>{p.label}</Label>
      {p.value.length === 0 ? (
        <Text className={s.muted} data-testid={`field-${p.name}`}>{p.text.empty}</Text>
      ) : (
        <ol className={s.list} data-testid={`field-${p.name}`}>
          {p.value.map((x, i) => {
            const name = p.labelOf(x);
            return (
              <li key={x} className={s.item} data-testid={`field-${p.name}-item`} {...{ [p.itemAttr]: x }}>
                <span className={s.pos}>{i + 1}.</span>
                <span className={s.name}>{name}</span>
                <Button size="small" appearance="subtle" icon={<ArrowUpRegular />} disabled={i === 0}
                  aria-label={p.text.up(x)} onClick={() => p.onChange(moveItem(p.value, i, -1))} data-testid="move-up" />
                <Button size="small" appearance="subtle" icon={<ArrowDownRegular />} disabled={i === p.value.length - 1}
                  aria-label={p.text.down(x)} onClick={() => p.onChange(moveItem(p.value, i, 1))} data-testid="move-down" />
                <Button size="small" appearance="subtle" icon={<DismissRegular />}
                  aria-label={p.text.remove(x)} onClick={() => p.onChange(removeAt(p.value, i))} data-testid="remove" />
              </li>
            );
          })}
        </ol>
      )}
      <Select aria-label={p.text.add} value="" disabled={left.length === 0}
        onChange={(_, d) => d.value && p.onChange(addItem(p.value, d.value))} data-testid={`field-${p.name}-add`}>
        <option value="">{p.text.add}</option>
        {left.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </Select>
      {p.text.hint && <Caption1 className={s.muted}>{p.text.hint}</Caption1>}
      {p.message && <Text role="alert" className={s.error}>{p.message}</Text>}
    </div>
  );
}
