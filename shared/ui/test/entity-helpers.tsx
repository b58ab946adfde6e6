import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { i18n, session } from '@tongdai/platform';

/**
 * Test helpers of the kit's own tests: an HTTP client that answers from a table of routes (the
 * API surface is not part of @tongdai/ui), a user holding some permissions, and a router.
 */
export type Call = { method: string; url: string; searchParams?: Record<string, unknown>; json?: unknown };

export function fakeClient(answer: (call: Call) => unknown) {
  const calls: Call[] = [];
  const send = (method: string) => (url: string, o: { searchParams?: Record<string, unknown>; json?: unknown } = {}) => {
    const call = { method, url, searchParams: o.searchParams, json: o.json };
    calls.push(call);
    const body = Promise.resolve().then(() => answer(call));
    return Object.assign(body, { json: () => body });
  };
  const client = { get: send('get'), post: send('post'), put: send('put'), delete: send('delete') };
  return { calls, client: () => client as never };
}

export function signIn(permissions: string[]) {
  session.start({
    token: 't', maDn: 'dn1', profile: null, payment: null,
    user: { name: 'nhan-vien', permissions: permissions.map((name) => ({ name })) } as never,
  });
}

/** Where the router is, shown for assertions. */
function Where() {
  const l = useLocation();
  return <output data-testid="where">{`${l.pathname}${l.search}`}</output>;
}

export function renderAt(url: string, routes: Record<string, ReactNode>) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={qc}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>{Object.entries(routes).map(([path, el]) => <Route key={path} path={path} element={el} />)}</Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
