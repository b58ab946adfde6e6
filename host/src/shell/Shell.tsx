import { useEffect } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { PlatformProviders } from '@tongdai/platform/react';
import { Content } from './Content';
import { Nav } from './Nav';
import { RecordingStorageAlarm } from './RecordingStorageAlarm';
import { startRemotes } from './remotes';
import { Toasts } from './Toasts';
import { TopBar } from './TopBar';
import { UpdateBanner } from './UpdateBanner';

const useStyles = makeStyles({
  // minmax(0, 1fr) and min-width 0: the top bar is as wide as the window, never as wide as its
  // content (its tenant and user names shorten instead, TopBar.tsx).
  shell: { display: 'grid', gridTemplateRows: '56px 1fr', gridTemplateColumns: '240px minmax(0, 1fr)', minHeight: '100vh' },
  top: { gridColumn: '1 / 3', minWidth: 0 },
  nav: { borderRight: `1px solid ${tokens.colorNeutralStroke2}`, background: tokens.colorNeutralBackground1 },
  main: { padding: '24px', background: tokens.colorNeutralBackground2, minWidth: 0 },
});

/** The common layout: top bar with the softphone, navigation from the manifests, a new release's notice (ADR 0053), the admins' alarm bar (issue 41), content. */
export default function Shell() {
  const s = useStyles();
  useEffect(() => startRemotes(), []);
  return (
    <PlatformProviders idPrefix="host" fill>
      <div className={s.shell}>
        <div className={s.top}><TopBar /></div>
        <aside className={s.nav}><Nav /></aside>
        <main className={s.main}><UpdateBanner /><RecordingStorageAlarm /><Content /></main>
      </div>
      {/* The softphone's audio element lives in the common layout (SPEC §2). */}
      <audio id="softphone-audio" data-testid="softphone-audio" autoPlay hidden />
      <Toasts />
    </PlatformProviders>
  );
}
