import { lazy, Suspense, useSyncExternalStore } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { routes } from '@tongdai/contracts';
import { session, theme } from '@tongdai/platform';
import { LoginScreen } from './login/LoginScreen';

// Fluent and the shell load only after login: /login stays light (bench: first-load JS).
const Shell = lazy(() => import('./shell/Shell'));

function useLoggedIn(): boolean {
  return useSyncExternalStore(
    (cb) => { const s = session.state$.subscribe(cb); return () => s.unsubscribe(); },
    () => session.isLoggedIn(),
  );
}

export function HostRoot() {
  const loggedIn = useLoggedIn();
  useSyncExternalStore(theme.subscribe, () => {
    document.documentElement.className = theme.isDark() ? 'dark' : '';
    return theme.isDark();
  });
  return (
    <BrowserRouter>
      <Routes>
        <Route path={routes.login()} element={loggedIn ? <Navigate to={routes.dashboard()} replace /> : <LoginScreen />} />
        <Route path="*" element={loggedIn ? <Suspense fallback={null}><Shell /></Suspense> : <Navigate to={routes.login()} replace />} />
      </Routes>
    </BrowserRouter>
  );
}
