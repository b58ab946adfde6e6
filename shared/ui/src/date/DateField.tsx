import { useEffect, useState } from 'react';
import { Button, Input, Popover, PopoverSurface, PopoverTrigger, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { CalendarLtrRegular, ChevronLeftRegular, ChevronRightRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { vnDay } from '@tongdai/contracts';
import { UI_NS } from '../i18n';
import { VI_MONTHS, VI_WEEKDAYS, VI_WEEKDAY_NAMES, formatViDate, isoParts, monthWeeks, parseTime, parseViDate, shiftMonth } from './viDate';

const useStyles = makeStyles({
  date: { width: '11em' },
  time: { width: '6.5em' },
  head: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '4px', marginBottom: '4px' },
  title: { fontWeight: tokens.fontWeightSemibold },
  grid: { borderCollapse: 'collapse' },
  weekday: { fontWeight: tokens.fontWeightRegular, color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200, padding: '2px' },
  day: { minWidth: '32px', width: '32px', height: '32px', padding: 0 },
  today: { outline: `1px solid ${tokens.colorBrandStroke1}` },
  foot: { display: 'flex', justifyContent: 'flex-end', marginTop: '4px' },
});

/**
 * A value typed as text: each keystroke that reads as a value (or an emptied field) is sent, a text
 * half typed changes nothing; a value changed from outside is shown as `format` writes it.
 */
function useTyped(value: string, onChange: (v: string) => void, parse: (text: string) => string | null, format: (v: string) => string) {
  const [text, setText] = useState(format(value));
  useEffect(() => { if ((parse(text) ?? '') !== value) setText(format(value)); }, [value]); // eslint-disable-line react-hooks/exhaustive-deps
  return {
    text,
    show: (v: string) => setText(format(v)),
    type: (next: string) => {
      setText(next);
      const read = next.trim() ? parse(next) : '';
      if (read !== null && read !== value) onChange(read);
    },
  };
}

export interface DateFieldProps {
  /** ISO 'yyyy-MM-dd', or '' when none. */
  value: string;
  onChange: (iso: string) => void;
  name?: string;
  disabled?: boolean;
  'aria-label'?: string;
}

/**
 * A date in Vietnamese form whatever the browser's language: shown and typed as dd/MM/yyyy (d/M/yyyy
 * too), picked on a month calendar starting on Monday (Tháng 1…, T2…CN, Hôm nay); the value is the
 * ISO day 'yyyy-MM-dd' the forms and the API exchange. A typed text that is not yet a day changes nothing.
 */
export function DateField({ value, onChange, name, disabled, ...rest }: DateFieldProps) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const typed = useTyped(value, onChange, parseViDate, formatViDate);
  const [open, setOpen] = useState(false);
  const pick = (iso: string) => { typed.show(iso); onChange(iso); setOpen(false); };
  return (
    <Input
      className={s.date} name={name} value={typed.text} disabled={disabled} placeholder={t('date.placeholder')} inputMode="numeric"
      onChange={(_, d) => typed.type(d.value)} onBlur={() => typed.show(value)} {...rest}
      contentAfter={
        <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-end" trapFocus>
          <PopoverTrigger disableButtonEnhancement>
            <Button appearance="transparent" size="small" icon={<CalendarLtrRegular />} disabled={disabled} aria-label={t('date.pick')} />
          </PopoverTrigger>
          <PopoverSurface aria-label={t('date.pick')}>
            <MonthCalendar value={value} onPick={pick} />
          </PopoverSurface>
        </Popover>
      }
    />
  );
}

function MonthCalendar({ value, onPick }: { value: string; onPick: (iso: string) => void }) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const today = vnDay(new Date());
  const start = isoParts(value) ?? isoParts(today)!;
  const [shown, setShown] = useState({ y: start.y, m: start.m });
  const title = t('date.month', { month: VI_MONTHS[shown.m - 1], year: shown.y });
  return (
    <div data-testid="date-picker">
      <div className={s.head}>
        <Button appearance="subtle" size="small" icon={<ChevronLeftRegular />} aria-label={t('date.prevMonth')} onClick={() => setShown(shiftMonth(shown.y, shown.m, -1))} />
        <span className={s.title} aria-live="polite">{title}</span>
        <Button appearance="subtle" size="small" icon={<ChevronRightRegular />} aria-label={t('date.nextMonth')} onClick={() => setShown(shiftMonth(shown.y, shown.m, 1))} />
      </div>
      <table className={s.grid} aria-label={title}>
        <thead>
          <tr>{VI_WEEKDAYS.map((d, i) => <th key={d} scope="col" abbr={VI_WEEKDAY_NAMES[i]} className={s.weekday}>{d}</th>)}</tr>
        </thead>
        <tbody>
          {monthWeeks(shown.y, shown.m).map((week, w) => (
            <tr key={w}>
              {week.map((iso, i) => (
                <td key={i}>
                  {iso && (
                    <Button
                      className={mergeClasses(s.day, iso === today && iso !== value && s.today)} size="small"
                      appearance={iso === value ? 'primary' : 'subtle'} aria-pressed={iso === value}
                      aria-label={dayName(iso, i)} onClick={() => onPick(iso)}
                    >
                      {Number(iso.slice(8))}
                    </Button>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className={s.foot}>
        <Button size="small" onClick={() => onPick(today)}>{t('date.today')}</Button>
      </div>
    </div>
  );
}

/** A calendar day's name, starting with its shown number (WCAG 2.5.3): "25 tháng 11 năm 2026, Thứ Tư". */
const dayName = (iso: string, weekday: number) => { const p = isoParts(iso)!; return `${p.d} tháng ${p.m} năm ${p.y}, ${VI_WEEKDAY_NAMES[weekday]}`; };

export interface TimeFieldProps {
  /** 'HH:mm' (24-hour), or '' when none. */
  value: string;
  onChange: (time: string) => void;
  disabled?: boolean;
  'aria-label'?: string;
}

/** A 24-hour time typed as HH:mm (H:mm too), whatever the browser's language. */
export function TimeField({ value, onChange, disabled, ...rest }: TimeFieldProps) {
  const s = useStyles();
  const { t } = useTranslation(UI_NS);
  const typed = useTyped(value, onChange, parseTime, (t) => t);
  return (
    <Input
      className={s.time} value={typed.text} disabled={disabled} placeholder={t('date.timePlaceholder')} inputMode="numeric"
      aria-label={t('date.time')} onChange={(_, d) => typed.type(d.value)} onBlur={() => typed.show(value)} {...rest}
    />
  );
}
