import { lazy, Suspense, useEffect, useRef, useSyncExternalStore } from 'react';
import { routes } from '@tongdai/contracts/lean';
import { i18n, session, theme } from '@tongdai/platform';
import { LoginScreen } from './login/LoginScreen';
import { navigate, usePathname } from './location';
import { NS } from './i18n';
import { pageTitle } from './shell/title';

// Fluent, react-router and the shell load only after login: /login stays light (bench: first-load JS).
const Shell = lazy(() => import('./shell/Shell'));
// Sign-up is rarer than login: its own small chunk, still without Fluent.
const SignupScreen = lazy(() => import('./signup/SignupScreen'));

function useLoggedIn(): boolean {
  return useSyncExternalStore(
    (cb) => { const s = session.state$.subscribe(cb); return () => s.unsubscribe(); },
    () => session.isLoggedIn(),
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

export function HostRoot() {
  const loggedIn = useLoggedIn();
  const pathname = usePathname();
  // A page opened while logged out goes on to its address after the login (?next=); a logout leaves
  // for the plain /login (the next person to log in on this browser starts on the dashboard).
  const everLoggedIn = useRef(loggedIn);
  if (loggedIn) everLoggedIn.current = true;
  useSyncExternalStore(theme.subscribe, () => {
    document.documentElement.className = theme.isDark() ? 'dark' : '';
    return theme.isDark();
  });
  // Login and sign-up name themselves; the shell names every other screen (shell/Content.tsx).
  useEffect(() => {
    const own = pathname === routes.login() ? 'login' : pathname === routes.signup() ? 'signup' : null;
    if (own) document.title = pageTitle(i18n.t(`${own}.title`, { ns: NS }));
  }, [pathname]);
  if (pathname === routes.login()) return loggedIn ? <Redirect to={routes.afterLogin(window.location.search)} /> : <LoginScreen />;
  if (pathname === routes.signup()) return loggedIn ? <Redirect to={routes.dashboard()} /> : <Suspense fallback={null}><SignupScreen /></Suspense>;
  if (!loggedIn) return <Redirect to={everLoggedIn.current ? routes.login() : routes.login(pathname + window.location.search)} />;
  return <Suspense fallback={null}><Shell /></Suspense>;
}
