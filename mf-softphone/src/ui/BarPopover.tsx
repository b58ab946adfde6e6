import type { ReactElement, ReactNode } from 'react';
import { Button, Field, Input, Popover, PopoverSurface, PopoverTrigger, Tooltip } from '@fluentui/react-components';
import { useSoftphoneStyles } from './styles';

/** An icon button in the top bar that opens a small panel below it (dial pad, transfer). */
export function BarPopover({ label, icon, testId, open, onOpenChange, children }: {
  label: string; icon: ReactElement; testId: string; open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode;
}) {
  const s = useSoftphoneStyles();
  return (
    <Popover open={open} onOpenChange={(_, d) => onOpenChange(d.open)} positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={label} relationship="label">
          <Button appearance="subtle" className={s.onBrand} icon={icon} data-testid={testId} />
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface aria-label={label}>{children}</PopoverSurface>
    </Popover>
  );
}

/** A number to call or transfer to: digits, *, # and + only. */
export function NumberField({ label, value, onChange, placeholder, testId, list }: {
  label: string; value: string; onChange: (value: string) => void; placeholder: string; testId: string; list?: string;
}) {
  return (
    <Field label={label}>
      <Input
        value={value} onChange={(_, d) => onChange(d.value.replace(/[^\d*#+]/g, ''))} list={list}
        placeholder={placeholder} inputMode="tel" autoFocus data-testid={testId}
      />
    </Field>
  );
}
