import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PERM, type Queue } from '@tongdai/contracts';
import { i18n, session } from '@tongdai/platform';
import { EntityFormScreen } from '@tongdai/ui';
import { queueEntity } from './queue.entity';

/** Post-call CSAT (issue 34) on the queue form, over a fake PBX API. */
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

beforeAll(() => {
  session.start({ token: 't', maDn: 'dn1', profile: null, payment: null, user: { name: 'quan-tri', permissions: Object.values(PERM.queue).map((name) => ({ name })) } as never });
});
beforeEach(() => {
  calls.length = 0;
  answers = { 'get partner/queues/5': () => ({ data: QUEUE }) };
});

function show(url: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}><QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[url]}><Routes>
        <Route path="/queue/add" element={<EntityFormScreen entity={queueEntity} />} />
        <Route path="/queue/edit/:id" element={<EntityFormScreen entity={queueEntity} />} />
        <Route path="/queue" element={<p>list</p>} />
      </Routes></MemoryRouter>
    </QueryClientProvider></I18nextProvider>,
  );
}
const toggle = () => screen.getByTestId('field-csat') as HTMLInputElement;
const saved = () => calls.filter((c) => c.method === 'put' || c.method === 'post');

jest.setTimeout(30_000);

describe('Khảo sát hài lòng sau cuộc gọi on the queue form', () => {
  it('shows the switch with its label and hint, off for a new queue', async () => {
    show('/queue/add');
    await waitFor(() => expect(toggle()).toBeTruthy());
    expect(screen.getByText('Khảo sát hài lòng sau cuộc gọi')).toBeTruthy();
    expect(screen.getByText('Khi nhân viên gác máy, người gọi được mời bấm phím 1–5 để đánh giá cuộc gọi')).toBeTruthy();
    expect(toggle().checked).toBe(false);
    expect(toggle().getAttribute('role')).toBe('switch');
  });

  it('turned on, the queue is saved with csat: true', async () => {
    show('/queue/edit/5');
    await waitFor(() => expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe('Chăm sóc khách hàng'));
    expect(toggle().checked).toBe(false);
    fireEvent.click(toggle());
    expect(toggle().checked).toBe(true);
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ method: 'put', url: 'partner/queues/5', json: expect.objectContaining({ csat: true, name: 'Chăm sóc khách hàng' }) });
  });

  it('a queue that asks for CSAT opens with the switch on, and turning it off sends csat: false', async () => {
    answers['get partner/queues/5'] = () => ({ data: { ...QUEUE, csat: true } });
    show('/queue/edit/5');
    await waitFor(() => expect(toggle().checked).toBe(true));
    fireEvent.click(toggle());
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect((saved()[0].json as Queue).csat).toBe(false);
  });
});
