import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PERM, type Inbound, type Queue } from '@tongdai/contracts';
import { i18n, session } from '@tongdai/platform';
import { EntityFormScreen, type AnyEntity } from '@tongdai/ui';
import { inboundEntity } from '../inbounds/inbounds.entity';
import { queueEntity } from '../queue/queue.entity';

/** Post-call CSAT (issue 34, ADR 0056): the switch on the queue form and on the inbound route form, over a fake PBX API. */
type Call = { method: string; url: string; json?: unknown };
const calls: Call[] = [];
let answers: Record<string, () => unknown>;
jest.mock('@tongdai/platform', () => {
  const send = (method: string) => (url: string, o: { json?: unknown } = {}) => {
    calls.push({ method, url, json: o.json });
    const answer = answers[`${method} ${url}`];
    const body = Promise.resolve().then(() => (answer ? answer() : method === 'get' ? { data: [], total: 0, page: 1, page_size: 10 } : { data: {} }));
    return Object.assign(body, { json: () => body });
  };
  const client = { get: send('get'), post: send('post'), put: send('put'), delete: send('delete') };
  return { ...jest.requireActual('@tongdai/platform'), pbxApi: () => client, tenantApi: () => client };
});
// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;

const QUEUE: Queue = {
  id: 5, name: 'Chăm sóc khách hàng', agents: ['101', '102'], strategy: 'ringall', agent_timeout: 15, max_wait: 300, timeout_destination: null,
  join_greeting_id: null, moh_class: '', description: '', sla_seconds: 20, amber_wait_seconds: 30, red_wait_seconds: 60, recording_mode: null, csat: false,
} as Queue;
const ROUTE: Inbound = {
  id: 5, did: '02873000001', caller_pattern: '', destination: { type: 'fw', target: '0901234567' }, description: 'Lễ tân', destination_name: '0901234567', csat: false,
} as Inbound;

interface FormCase {
  name: string;
  entity: AnyEntity;
  path: string;
  permissions: string[];
  /** The detail the form reads, and the row behind it. */
  get: string;
  row: Queue | Inbound;
  put: string;
  /** A field the loaded row fills (the form has read it), and its value. */
  loaded: [testId: string, value: string];
  /** What the save sends beside csat. */
  kept: Record<string, unknown>;
  hint: string | RegExp;
}
const CASES: FormCase[] = [
  {
    name: 'queue', entity: queueEntity as never, path: '/queue', permissions: Object.values(PERM.queue), get: 'partner/queues/5', row: QUEUE, put: 'partner/queues/5',
    loaded: ['field-name', 'Chăm sóc khách hàng'], kept: { name: 'Chăm sóc khách hàng' }, hint: 'Khi nhân viên gác máy, người gọi được mời bấm phím 1–5 để đánh giá cuộc gọi',
  },
  {
    name: 'inbound route', entity: inboundEntity as never, path: '/inbounds', permissions: Object.values(PERM.inbound), get: 'inbound/john/incoming/detail/5/dn1', row: ROUTE, put: 'partner/inbound/5',
    loaded: ['field-description', 'Lễ tân'], kept: { did: '02873000001', destination: { type: 'fw', target: '0901234567' } }, hint: /người gọi được mời bấm phím 1–5 để đánh giá cuộc gọi/,
  },
];

function show(c: FormCase, url: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}><QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[url]}><Routes>
        <Route path={`${c.path}/add`} element={<EntityFormScreen entity={c.entity} />} />
        <Route path={`${c.path}/edit/:id`} element={<EntityFormScreen entity={c.entity} />} />
        <Route path={c.path} element={<p>list</p>} />
      </Routes></MemoryRouter>
    </QueryClientProvider></I18nextProvider>,
  );
}
const toggle = () => screen.getByTestId('field-csat') as HTMLInputElement;
const saved = () => calls.filter((c) => c.method === 'put' || c.method === 'post');

jest.setTimeout(30_000);

describe.each(CASES)('Khảo sát hài lòng sau cuộc gọi on the $name form', (c) => {
  beforeAll(() => {
    session.start({ token: 't', maDn: 'dn1', profile: null, payment: null, user: { name: 'quan-tri', permissions: c.permissions.map((name) => ({ name })) } as never });
  });
  beforeEach(() => {
    calls.length = 0;
    answers = { [`get ${c.get}`]: () => ({ data: c.row }) };
  });

  it('shows the switch with its label and hint, off for a new one', async () => {
    show(c, `${c.path}/add`);
    await waitFor(() => expect(toggle()).toBeTruthy());
    expect(screen.getByText('Khảo sát hài lòng sau cuộc gọi')).toBeTruthy();
    expect(screen.getByText(c.hint)).toBeTruthy();
    expect(toggle().checked).toBe(false);
    expect(toggle().getAttribute('role')).toBe('switch');
  });

  it('turned on, it is saved with csat: true', async () => {
    show(c, `${c.path}/edit/5`);
    await waitFor(() => expect((screen.getByTestId(c.loaded[0]) as HTMLInputElement).value).toBe(c.loaded[1]));
    expect(toggle().checked).toBe(false);
    fireEvent.click(toggle());
    expect(toggle().checked).toBe(true);
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ method: 'put', url: c.put, json: expect.objectContaining({ csat: true, ...c.kept }) });
  });

  it('one that asks opens with the switch on, and turning it off sends csat: false', async () => {
    answers[`get ${c.get}`] = () => ({ data: { ...c.row, csat: true } });
    show(c, `${c.path}/edit/5`);
    await waitFor(() => expect(toggle().checked).toBe(true));
    fireEvent.click(toggle());
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect((saved()[0].json as { csat: boolean }).csat).toBe(false);
  });
});
