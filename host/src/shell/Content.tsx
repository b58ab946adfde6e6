import { lazy, memo, Suspense, type ReactElement } from 'react';
import { Spinner } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { routes } from '@tongdai/contracts';
import { matchPath } from '@tongdai/platform';
import { ErrorState } from '@tongdai/ui';
import { NS } from '../i18n';
import { isSettingsPath } from '../settings/paths';
import { Dashboard } from './Dashboard';
import { remoteScreenLabel, useDocumentTitle } from './title';
import { brokenApps$, remotes$, retryRemote, type RemoteState } from './remotes';
import { useBehavior } from './useObservable';

// The host's own settings screens: a chunk of their own, fetched on the first visit.
const SettingsArea = lazy(() => import('../settings/SettingsArea'));

/** single-spa owns these divs' content; React renders them once and never touches them again. */
const Slots = memo(({ ids }: { ids: string }) => (
  <>{ids.split(',').filter(Boolean).map((id) => <div key={id} id={`single-spa-application:${id}`} />)}</>
));

export function RemoteDown({ id }: { id: string }) {
  const { t } = useTranslation(NS);
  return (
    <ErrorState
      testId={`remote-error-${id}`}
      title={t('shell.remoteDown', { title: t(`remotes.${id}`, { defaultValue: id }) })}
      message={t('shell.remoteDownHint')}
      onRetry={() => retryRemote(id)}
    />
  );
}

/** A remote whose release this host cannot run (ADR 0053): its area is being updated; a reload reads the registry again. */
export function RemoteUpdating({ id }: { id: string }) {
  const { t } = useTranslation(NS);
  return (
    <ErrorState
      testId={`remote-updating-${id}`}
      title={t('shell.remoteUpdating')}
      message={t('shell.remoteUpdatingHint', { title: t(`remotes.${id}`, { defaultValue: id }) })}
      onRetry={() => window.location.reload()}
    />
  );
}

function owner(remotes: RemoteState[], pathname: string): string | undefined {
  for (const r of remotes) if (r.status === 'ready' && r.manifest.routes.some((x) => matchPath(x.path, pathname))) return r.id;
  return undefined;
}

/** The current screen's name for the document title: the host's own screens, else the remote's manifest. */
function screenLabel(pathname: string, remotes: RemoteState[], t: (k: string, o?: Record<string, unknown>) => string): string | null {
  if (pathname === routes.dashboard()) return t('shell.dashboard');
  if (isSettingsPath(pathname)) {
    const slug = pathname.split('/')[2];
    return slug ? t(`settings.cards.${slug}.title`, { defaultValue: t('settings.title') }) : t('settings.title');
  }
  const manifests = remotes.flatMap((r) => (r.status === 'ready' ? [r.manifest] : []));
  if (remotes.some((r) => r.status === 'loading') && !manifests.some((m) => m.routes.some((x) => matchPath(x.path, pathname)))) return null;
  return remoteScreenLabel(manifests, pathname, { add: t('add', { ns: 'ui' }), edit: t('edit', { ns: 'ui' }) }) ?? t('shell.notFound');
}

/** What the host shows in the content area: its own screens, a remote's slot, or a fallback. */
export function Content() {
  const { t } = useTranslation(NS);
  const { pathname } = useLocation();
  const remotes = useBehavior(remotes$);
  const broken = useBehavior(brokenApps$);
  const slotIds = remotes.filter((r) => r.status === 'ready' && !r.manifest.persistent).map((r) => r.id).join(',');

  let own: ReactElement | null = null;
  const id = owner(remotes, pathname);
  useDocumentTitle(screenLabel(pathname, remotes, t));
  if (pathname === '/') own = <Navigate to={routes.dashboard()} replace />;
  else if (pathname === routes.dashboard()) own = <Dashboard />;
  else if (isSettingsPath(pathname)) own = <Suspense fallback={<Spinner label={t('shell.loadingArea')} />}><SettingsArea /></Suspense>;
  else if (id) own = broken.has(id) ? <RemoteDown id={id} /> : null;
  else if (remotes.some((r) => r.status === 'loading')) own = <Spinner label={t('shell.loadingArea')} />;
  else {
    const failed = remotes.filter((r) => (r.status === 'error' || r.status === 'incompatible') && r.id !== 'mf_softphone');
    own = failed.length ? (
      <div style={{ display: 'grid', gap: 16 }}>{failed.map((r) => (r.status === 'incompatible' ? <RemoteUpdating key={r.id} id={r.id} /> : <RemoteDown key={r.id} id={r.id} />))}</div>
    ) : (
      <ErrorState testId="not-found" title={t('shell.notFound')} message={t('shell.notFoundHint')} />
    );
  }
  return (
    <>
      {own}
      <Slots ids={slotIds} />
    </>
  );
}
