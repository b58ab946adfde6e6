import type { ReactElement } from 'react';
import { Caption1Strong, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import {
  AppsRegular, BoardRegular, BriefcaseRegular, BuildingRegular, CallRegular, DataBarVerticalRegular, DatabaseRegular,
  PeopleRegular, PeopleTeamRegular, PersonRegular, ShieldKeyholeRegular, TagRegular,
  CallInboundRegular, DialpadRegular, FlowchartRegular, HistoryRegular, MegaphoneRegular, PeopleCallRegular, PeopleQueueRegular,
  CalendarLtrRegular, CallOutboundRegular, CallProhibitedRegular, ClockRegular, MusicNote2Regular, Speaker2Regular,
  CallAddRegular, ServerRegular, QuestionCircleRegular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { routes } from '@tongdai/contracts';
import { canAccess, type NavEntry } from '@tongdai/platform';
import { useSession } from '@tongdai/platform/react';
import { NS } from '../i18n';
import { remotes$ } from './remotes';
import { useBehavior } from './useObservable';

const ICONS: Record<string, ReactElement> = {
  people: <PeopleRegular />,
  call: <CallRegular />,
  report: <DataBarVerticalRegular />,
  board: <BoardRegular />,
  briefcase: <BriefcaseRegular />,
  building: <BuildingRegular />,
  database: <DatabaseRegular />,
  person: <PersonRegular />,
  shield: <ShieldKeyholeRegular />,
  tag: <TagRegular />,
  team: <PeopleTeamRegular />,
  dialpad: <DialpadRegular />,
  'call-inbound': <CallInboundRegular />,
  'people-call': <PeopleCallRegular />,
  'people-queue': <PeopleQueueRegular />,
  flowchart: <FlowchartRegular />,
  megaphone: <MegaphoneRegular />,
  history: <HistoryRegular />,
  clock: <ClockRegular />,
  calendar: <CalendarLtrRegular />,
  speaker: <Speaker2Regular />,
  music: <MusicNote2Regular />,
  'call-outbound': <CallOutboundRegular />,
  'call-prohibited': <CallProhibitedRegular />,
  'call-add': <CallAddRegular />,
  server: <ServerRegular />,
  question: <QuestionCircleRegular />,
};

const useStyles = makeStyles({
  nav: { display: 'flex', flexDirection: 'column', padding: '12px 8px', gap: '2px' },
  group: { padding: '12px 12px 4px', color: tokens.colorNeutralForeground3 },
  link: {
    display: 'flex', alignItems: 'center', gap: '10px', padding: '8px 12px', borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1, textDecoration: 'none', fontSize: '14px',
    ':hover': { background: tokens.colorNeutralBackground1Hover },
  },
  // colorBrandForeground2: on the selected background it reads ≥ 4.5:1 in both themes (Foreground1 is 4.17:1 in dark).
  active: { background: tokens.colorNeutralBackground1Selected, fontWeight: 600, color: tokens.colorBrandForeground2 },
});

/**
 * Navigation built from the remotes' manifests, filtered by permission and purchased feature: each
 * remote's entries under its title, then the entries that name a `group` ("Viễn thông") under that
 * group, whichever remotes they come from.
 */
export function Nav() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  useSession();
  const remotes = useBehavior(remotes$);
  const cls = ({ isActive }: { isActive: boolean }) => mergeClasses(s.link, isActive && s.active);
  const link = (e: NavEntry) => (
    <NavLink key={e.path} to={e.path} className={cls} data-testid={`nav-${e.path.slice(1)}`}>
      {ICONS[e.icon] ?? <AppsRegular />}{e.label}
    </NavLink>
  );
  const grouped = new Map<string, NavEntry[]>();
  const ready = remotes.flatMap((r) => (r.status === 'ready' ? [{ id: r.id, title: r.manifest.title, entries: r.manifest.nav.filter(canAccess) }] : []));
  for (const r of ready) for (const e of r.entries) if (e.group) grouped.set(e.group, [...(grouped.get(e.group) ?? []), e]);
  return (
    <nav className={s.nav} aria-label={t('shell.menu')} data-testid="nav">
      <NavLink to={routes.dashboard()} className={cls}><BoardRegular />{t('shell.dashboard')}</NavLink>
      {ready.map((r) => {
        const entries = r.entries.filter((e) => !e.group);
        if (!entries.length) return null;
        return (
          <div key={r.id} data-testid={`nav-group-${r.id}`}>
            <Caption1Strong as="p" className={s.group}>{r.title}</Caption1Strong>
            {entries.map(link)}
          </div>
        );
      })}
      {[...grouped].map(([group, entries]) => (
        <div key={group} data-testid="nav-group" data-group={group}>
          <Caption1Strong as="p" className={s.group}>{group}</Caption1Strong>
          {entries.map(link)}
        </div>
      ))}
    </nav>
  );
}
