import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MSG } from '@tongdai/contracts';
import { canAccess, can, whenIdle, type RouteDef } from '@tongdai/platform';
import { PlatformProviders, useSession } from '@tongdai/platform/react';
import { ErrorState, LoadingState } from './States';
import { UI_NS } from './i18n';

class Boundary extends Component<{ children: ReactNode; fallback: (retry: () => void) => ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() { return { failed: true }; }
  componentDidCatch(error: Error, info: ErrorInfo) { console.error('[tongdai] screen crashed', error, info.componentStack); }
  render() { return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children; }
}

function Gate({ route, children }: { route: RouteDef; children: ReactNode }) {
  const { t } = useTranslation(UI_NS);
  useSession();
  if (!can(route.permission)) return <ErrorState testId="forbidden" message={t('forbidden')} />;
  if (!canAccess(route)) return <ErrorState testId="not-purchased" message={t('notPurchased')} />;
  return <>{children}</>;
}

function ScreenBoundary({ children }: { children: ReactNode }) {
  const { t } = useTranslation(UI_NS);
  const { pathname } = useLocation();
  // Keyed on the path: a crash clears when the user navigates away.
  return <Boundary key={pathname} fallback={(retry) => <ErrorState title={t('screenCrashed')} message={MSG.generic} onRetry={retry} />}>{children}</Boundary>;
}

/**
 * A lazy screen that renders synchronously once loaded: no Suspense fallback, so no React 19
 * fallback throttle (~300 ms) on the first visit after a preload.
 */
function preloadable(loader: RouteDef['loader']) {
  let loaded: ComponentType | null = null;
  let pending: Promise<{ default: ComponentType }> | null = null;
  const preload = () => (pending ??= loader().then((m) => { loaded = m.default; return m; }, (e) => { pending = null; throw e; }));
  const Lazy = lazy(preload);
  const Screen = () => { const C = loaded; return C ? <C /> : <Lazy />; };
  return Object.assign(Screen, { preload });
}

/**
 * single-spa lifecycles for a remote: its own React root, one PlatformProviders, a route per
 * manifest screen (lazy, permission- and feature-gated), and error boundaries so a crash stays
 * inside this area.
 */
export function createRemoteApp(opts: { name: string; routes: RouteDef[]; root?: ComponentType }) {
  const screens = opts.routes.map((r) => ({ route: r, Screen: preloadable(r.loader) }));
  // Screens are tiny; fetched while the browser is idle, the first click renders without suspending.
  whenIdle(() => screens.forEach((s) => void s.Screen.preload().catch(() => undefined)));
  const Root = opts.root ?? (() => (
    <ScreenBoundary>
      <Routes>
        {screens.map(({ route, Screen }) => (
          <Route key={route.path} path={route.path} element={<Gate route={route}><Suspense fallback={<LoadingState />}><Screen /></Suspense></Gate>} />
        ))}
        <Route path="*" element={null} />
      </Routes>
    </ScreenBoundary>
  ));
  return singleSpaReact({
    React,
    ReactDOMClient,
    rootComponent: () => <PlatformProviders idPrefix={opts.name}><Root /></PlatformProviders>,
    errorBoundary: () => <ErrorState message={MSG.generic} />,
  });
}
