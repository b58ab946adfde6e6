import { Caption1, Text, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { ACTIVITY_LABELS as L, ACTIVITY_STATUSES, vnDayStart, vnTime, type ActivityPeriod, type ActivityTimeline } from '@tongdai/contracts';

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

/** Where a period sits on the day, in percent (a period still going ends now). */
function place(p: ActivityPeriod, dayStart: number) {
  const from = Math.max(0, Date.parse(p.from) - dayStart);
  const to = Math.min(DAY_MS, (p.to ? Date.parse(p.to) : Date.now()) - dayStart);
  return { left: `${(from / DAY_MS) * 100}%`, width: `${(Math.max(0, to - from) / DAY_MS) * 100}%` };
}
const span = (p: ActivityPeriod) => `${vnTime(p.from)} – ${p.to ? vnTime(p.to) : '…'}`;
const statusLabel = (v: number) => ACTIVITY_STATUSES.find((s) => s.value === v)?.label ?? String(v);

/** One user's day as three lanes over 0–24 h: logged in (with login/logout marks), status, SIP registration. */
export function Timeline({ data }: { data: ActivityTimeline }) {
  const s = useStyles();
  const dayStart = vnDayStart(data.day)!.getTime();
  const marks = data.events.filter((e) => e.kind === 'login' || e.kind === 'logout');
  const endedAt = data.sessions.filter((p) => p.end === 'expired' && p.to);
  return (
    <div data-testid="activity-timeline">
      <Title3 as="h2">{`${L.timeline}: ${data.full_name}, ${data.day.split('-').reverse().join('/')}`}</Title3>
      <div className={s.grid} style={{ marginTop: 12 }}>
        <span />
        <div className={s.axis} aria-hidden>
          {[0, 3, 6, 9, 12, 15, 18, 21, 24].map((h) => <Caption1 key={h} className={s.tick} style={{ left: `${(h / 24) * 100}%` }}>{`${h}h`}</Caption1>)}
        </div>
        <Text>{L.sessions}</Text>
        <div className={s.lane} data-testid="timeline-sessions">
          {data.sessions.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...place(p, dayStart), background: tokens.colorBrandBackground }} title={span(p)} data-testid="timeline-session" />
          ))}
          {marks.map((e, i) => (
            <span key={`m${i}`} className={s.mark} style={{ left: place({ from: e.at, to: e.at }, dayStart).left, background: e.kind === 'login' ? tokens.colorPaletteGreenForeground1 : tokens.colorPaletteRedForeground1 }}
              title={`${e.kind === 'login' ? L.login : L.logout} ${vnTime(e.at)}`} data-testid={`timeline-${e.kind}`} />
          ))}
          {endedAt.map((p, i) => (
            <span key={`x${i}`} className={s.mark} style={{ left: place({ from: p.to!, to: p.to }, dayStart).left, background: tokens.colorNeutralForeground3 }} title={`${L.expired} ${vnTime(p.to)}`} />
          ))}
        </div>
        <Text>{L.statuses}</Text>
        <div className={s.lane} data-testid="timeline-statuses">
          {data.statuses.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...place(p, dayStart), background: STATUS_COLOR[p.status] }} title={`${statusLabel(p.status)}: ${span(p)}`} data-testid={`timeline-status-${p.status}`} />
          ))}
        </div>
        <Text>{L.registeredRow}</Text>
        <div className={s.lane} data-testid="timeline-registered">
          {data.registered.map((p, i) => (
            <span key={i} className={s.bar} style={{ ...place(p, dayStart), background: tokens.colorPaletteBlueBorderActive }} title={`${p.extension}: ${span(p)}`} data-testid="timeline-registration" />
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
