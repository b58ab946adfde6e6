import type { ReactElement, ReactNode } from 'react';
import { Button, CounterBadge, Field, Input, Popover, PopoverSurface, PopoverTrigger, Tooltip } from '@fluentui/react-components';
import { useSoftphoneStyles } from './styles';

/**
 * An icon button in the top bar that opens a small panel below it (dial pad, transfer, recent
 * calls, voicemail); `badge`: a count on the icon while above 0 (missed calls, new messages), and
 * `title` names the panel when the button's label carries that count.
 */
export function BarPopover({ label, title, icon, testId, badge, open, onOpenChange, children }: {
  label: string; title?: string; icon: ReactElement; testId: string; badge?: { count: number; testId: string };
  open: boolean; onOpenChange: (open: boolean) => void; children: ReactNode;
}) {
  const s = useSoftphoneStyles();
  const shown = badge ? (
    <span className={s.badged}>
      {icon}
      {badge.count > 0 && <CounterBadge className={s.counter} count={badge.count} size="small" color="danger" data-testid={badge.testId} />}
    </span>
  ) : icon;
  return (
    // Focus moved outside by the page (a re-rendered screen behind restoring its focus, seen closing the
    // voicemail panel while a message loaded) does not close it: the user cannot tab out of a trapped
    // panel, and a click outside or Escape still closes it.
    <Popover open={open} onOpenChange={(e, d) => (d.open || e.type !== 'focusin') && onOpenChange(d.open)} positioning="below-end" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Tooltip content={label} relationship="label">
          <Button appearance="subtle" className={s.onBrand} icon={shown} data-testid={testId} />
        </Tooltip>
      </PopoverTrigger>
      <PopoverSurface aria-label={title ?? label}>{children}</PopoverSurface>
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
