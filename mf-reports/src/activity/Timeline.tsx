import { Caption1, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { ACTIVITY_LABELS as L, ACTIVITY_STATUSES, vnDayStart, type ActivityPeriod, type ActivityTimeline } from '@tongdai/contracts';
import { formatViTime } from '@tongdai/ui';


const DAY_MS = 86_400_000;
const STATUS_COLOR: Record<number, string> = {
  1: tokens.colorPaletteGreenBackground3,
  2: tokens.colorPaletteMarigoldBackground3,
  3: tokens.colorPaletteRedBackground3,
};

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: '120px 1fr', rowGap: '8px', columnGap: '12px', alignItems: 'center' },
  lane: { position: 'relative', height: '22px', background: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium },
  bar: { position: 'absolute', top: '3px', bottom: '3px', borderRadius: tokens.borderRadiusSmall, minWidth: '2px' },
  mark: { position: 'absolute', top: '-3px', bottom: '-3px', width: '2px' },
  axis: { position: 'relative', height: '18px' },
  tick: { position: 'absolute', transform: 'translateX(-50%)', color: tokens.colorNeutralForeground3 },
  legend: { display: 'flex', gap: '16px', flexWrap: 'wrap', marginTop: '8px' },
  swatch: { display: 'inline-block', width: '12px', height: '12px', borderRadius: '2px', marginRight: '6px', verticalAlign: 'middle' },
});

const HOUR_MS = 3_600_000;
const end = (p: ActivityPeriod) => (p.to ? Date.parse(p.to) : Date.now());

const UNIT_MS = 5 * 60_000;

/** The stretch of the day drawn: whole 5 minutes around what happened, at least 10 (all day when nothing did). */
export function windowOf(data: ActivityTimeline, dayStart: number): { lo: number; hi: number; step: number } {
  const periods = [...data.sessions, ...data.statuses, ...data.registered];
  const times = [...periods.flatMap((p) => [Date.parse(p.from), end(p)]), ...data.events.map((e) => Date.parse(e.at))].map((t) => t - dayStart);
  const lo = times.length ? Math.max(0, Math.floor(Math.min(...times) / UNIT_MS) * UNIT_MS) : 0;
  const hi = times.length ? Math.min(DAY_MS, Math.max(lo + 2 * UNIT_MS, Math.ceil(Math.max(...times) / UNIT_MS) * UNIT_MS)) : DAY_MS;
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 180].map((m) => m * 60_000).find((m) => (hi - lo) / m <= 8) ?? 3 * HOUR_MS;
  return { lo, hi, step };
}

/** Where a span sits in the window, in percent (a period still going ends now). */
function place(p: ActivityPeriod, dayStart: number, w: { lo: number; hi: number }) {
  const len = w.hi - w.lo;
  const from = Math.min(len, Math.max(0, Date.parse(p.from) - dayStart - w.lo));
  const to = Math.min(len, end(p) - dayStart - w.lo);
  return { left: `${(from / len) * 100}%`, width: `${(Math.max(0, to - from) / len) * 100}%` };
}
const clockOf = (ms: number) => `${String(Math.floor(ms / HOUR_MS)).padStart(2, '0')}:${String(Math.floor((ms % HOUR_MS) / 60_000)).padStart(2, '0')}`;
const span = (p: ActivityPeriod) => `${formatViTime(p.from, { seconds: true })} – ${p.to ? formatViTime(p.to, { seconds: true }) : '…'}`;
const statusLabel = (v: number) => ACTIVITY_STATUSES.find((s) => s.value === v)?.label ?? String(v);

/** One user's day as three lanes over the hours something happened: logged in (with login/logout marks), status, SIP registration. */
export function Timeline({ data }: { data: ActivityTimeline }) {
  const s = useStyles();
  const dayStart = vnDayStart(data.day)!.getTime();
  const w = windowOf(data, dayStart);
  const at = (p: ActivityPeriod) => place(p, dayStart, w);
  const ticks = Array.from({ length: Math.floor((w.hi - w.lo) / w.step) + 1 }, (_, i) => w.lo + i * w.step);
  const marks = data.events.filter((e) => e.kind === 'login' || e.kind === 'logout');
  const endedAt = data.sessions.filter((p) => p.end === 'expired' && p.to);
  return (
    <div data-testid="activity-timeline">
      <Title3 as="h2">{`${L.timeline}: ${data.full_name}, ${data.day.split('-').reverse().join('/')}`}</Title3>
      <div className={s.grid} style={{ marginTop: 12 }}>
        <span />
        <div className={s.axis} aria-hidden>
          {ticks.map((t) => <Caption1 key={t} className={s.tick} style={{ left: `${((t - w.lo) / (w.hi - w.lo)) * 100}%` }}>{clockOf(t)}</Caption1>)}
        </div>
        <Text>{L.sessions}</Text>
        <div className={s.lane} data-testid="timeline-sessions">
          {data.sessions.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...at(p), background: tokens.colorBrandBackground }} title={span(p)} data-testid="timeline-session" />
          ))}
          {marks.map((e, i) => (
            <span key={`m${i}`} className={s.mark} style={{ left: at({ from: e.at, to: e.at }).left, background: e.kind === 'login' ? tokens.colorPaletteGreenForeground1 : tokens.colorPaletteRedForeground1 }}
              title={`${e.kind === 'login' ? L.login : L.logout} ${formatViTime(e.at, { seconds: true })}`} data-testid={`timeline-${e.kind}`} />
          ))}
          {endedAt.map((p, i) => (
            <span key={`x${i}`} className={s.mark} style={{ left: at({ from: p.to!, to: p.to }).left, background: tokens.colorNeutralForeground3 }} title={`${L.expired} ${formatViTime(p.to, { seconds: true })}`} />
          ))}
        </div>
        <Text>{L.statuses}</Text>
        <div className={s.lane} data-testid="timeline-statuses">
          {data.statuses.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...at(p), background: STATUS_COLOR[p.status] }} title={`${statusLabel(p.status)}: ${span(p)}`} data-testid={`timeline-status-${p.status}`} />
          ))}
        </div>
        <Text>{L.registeredRow}</Text>
        <div className={s.lane} data-testid="timeline-registered">
          {data.registered.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...at(p), background: tokens.colorPaletteBlueBorderActive }} title={`${p.extension}: ${span(p)}`} data-testid="timeline-registration" />
          ))}
        </div>
      </div>
      <div className={s.legend}>
        <Caption1><span className={s.swatch} style={{ background: tokens.colorBrandBackground }} />{L.sessions}</Caption1>
        {ACTIVITY_STATUSES.map((st) => <Caption1 key={st.value}><span className={s.swatch} style={{ background: STATUS_COLOR[st.value] }} />{st.label}</Caption1>)}
        <Caption1><span className={s.swatch} style={{ background: tokens.colorPaletteBlueBorderActive }} />{L.registeredRow}</Caption1>
      </div>
    </div>
  );
}
