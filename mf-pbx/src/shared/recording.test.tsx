import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PERM, RECORDING_INHERIT_LABEL, RECORDING_MODE_LABELS, type Queue, type Subscriber } from '@tongdai/contracts';
import { i18n, session } from '@tongdai/platform';
import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { queueEntity } from '../queue/queue.entity';
import SubscriberFormScreen from '../subscribers/SubscriberFormScreen';
import { subscriberEntity } from '../subscribers/subscribers.entity';

/** "Ghi âm" on the queue and extension forms and lists, over a fake PBX and tenant API. */
type Call = { api: string; method: string; url: string; json?: unknown };
const calls: Call[] = [];
let answers: Record<string, () => unknown>;
jest.mock('@tongdai/platform', () => {
  const client = (api: string) => {
    const send = (method: string) => (url: string, o: { json?: unknown } = {}) => {
      calls.push({ api, method, url, json: o.json });
      const answer = answers[`${method} ${url}`];
      const body = Promise.resolve().then(() => (answer ? answer() : method === 'get' ? { data: [], total: 0, page: 1, page_size: 10, meta: { page: 1, per_page: 10, total: 0 } } : { data: {} }));
      return Object.assign(body, { json: () => body });
    };
    return { get: send('get'), post: send('post'), put: send('put'), delete: send('delete') };
  };
  return { ...jest.requireActual('@tongdai/platform'), pbxApi: () => client('pbx'), tenantApi: () => client('tenant') };
});
// jsdom has no ResizeObserver; Fluent's MessageBar measures itself with one.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;

const QUEUE: Queue = {
  id: 5, name: 'Chăm sóc khách hàng', agents: ['101', '102'], strategy: 'ringall', agent_timeout: 15, max_wait: 300, timeout_destination: null,
  join_greeting_id: null, moh_class: '', description: '', sla_seconds: 20, amber_wait_seconds: 30, red_wait_seconds: 60, recording_mode: null, csat: false,
} as Queue;
const SUBSCRIBER: Subscriber = {
  id: 3, extension: '101', display_name: 'Lễ tân', user_id: null, user_name: null, created_at: '2026-01-01T00:00:00Z',
  ring_time: null, voicemail_enabled: false, voicemail_pin: null, voicemail_greeting_id: null, voicemail_max_seconds: 120, recording_mode: 'inbound',
} as Subscriber;

beforeAll(() => {
  session.start({
    token: 't', maDn: 'dn1', profile: null, payment: null,
    user: { name: 'quan-tri', permissions: [...Object.values(PERM.queue), ...Object.values(PERM.subscriber)].map((name) => ({ name })) } as never,
  });
});
beforeEach(() => {
  calls.length = 0;
  answers = {
    'get partner/queues/5': () => ({ data: QUEUE }),
    'get subscribers/3': () => ({ data: SUBSCRIBER }),
    'get partner/queues': () => ({ data: [QUEUE, { ...QUEUE, id: 6, name: 'Kinh doanh', recording_mode: 'all' }], total: 2, page: 1, page_size: 10 }),
    'get subscribers': () => ({ data: [SUBSCRIBER, { ...SUBSCRIBER, id: 4, extension: '102', recording_mode: null }], meta: { page: 1, per_page: 10, total: 2 } }),
  };
});

function show(url: string, routes: Record<string, ReactElement>) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18n}><QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[url]}><Routes>{Object.entries(routes).map(([p, el]) => <Route key={p} path={p} element={el} />)}</Routes></MemoryRouter>
    </QueryClientProvider></I18nextProvider>,
  );
}
const choice = () => screen.getByTestId('field-recording_mode') as HTMLSelectElement;
const options = () => [...choice().options].map((o) => [o.value, o.textContent]);
const FIVE = [['', RECORDING_INHERIT_LABEL], ...Object.entries(RECORDING_MODE_LABELS)];
const saved = () => calls.filter((c) => c.method === 'put' || c.method === 'post');

jest.setTimeout(30_000);

describe('Ghi âm on the queue form', () => {
  it("offers the tenant's and the four modes, starts on the tenant's (null), and sends the mode chosen", async () => {
    show('/queue/edit/5', { '/queue/edit/:id': <EntityFormScreen entity={queueEntity} />, '/queue': <p>list</p> });
    await waitFor(() => expect(choice().value).toBe(''));
    expect(screen.getByText('Ghi âm')).toBeTruthy();
    expect(options()).toEqual(FIVE);
    fireEvent.change(choice(), { target: { value: 'outbound' } });
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ api: 'pbx', method: 'put', url: 'partner/queues/5', json: expect.objectContaining({ recording_mode: 'outbound', name: 'Chăm sóc khách hàng' }) });
  });

  it("back to the tenant's sends null", async () => {
    answers['get partner/queues/5'] = () => ({ data: { ...QUEUE, recording_mode: 'none' } });
    show('/queue/edit/5', { '/queue/edit/:id': <EntityFormScreen entity={queueEntity} />, '/queue': <p>list</p> });
    await waitFor(() => expect(choice().value).toBe('none'));
    fireEvent.change(choice(), { target: { value: '' } });
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect((saved()[0].json as Queue).recording_mode).toBeNull();
  });

  it("the list shows each queue's mode, the tenant's where it has none", async () => {
    show('/queue', { '/queue': <EntityListScreen entity={queueEntity} /> });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2));
    expect(screen.getByRole('columnheader', { name: 'Ghi âm' })).toBeTruthy();
    expect(screen.getAllByTestId('row-recording_mode').map((c) => c.textContent)).toEqual([RECORDING_INHERIT_LABEL, RECORDING_MODE_LABELS.all]);
  });
});

describe('Ghi âm on the extension (subscriber) form', () => {
  it("starts on the extension's own mode and sends the one chosen to the tenant API", async () => {
    show('/subscribers/edit/3', { '/subscribers/edit/:id': <SubscriberFormScreen />, '/subscribers': <p>list</p> });
    await waitFor(() => expect(choice().value).toBe('inbound'));
    expect(options()).toEqual(FIVE);
    expect(within(screen.getByTestId('subscriber-form')).getByText('Ghi âm')).toBeTruthy();
    fireEvent.change(choice(), { target: { value: 'all' } });
    await act(async () => { fireEvent.click(screen.getByTestId('save')); });
    await waitFor(() => expect(saved()).toHaveLength(1));
    expect(saved()[0]).toMatchObject({ api: 'tenant', method: 'put', url: 'subscribers/3', json: expect.objectContaining({ recording_mode: 'all', extension: '101' }) });
  });

  it("the list shows each extension's mode", async () => {
    show('/subscribers', { '/subscribers': <EntityListScreen entity={subscriberEntity} /> });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2));
    expect(screen.getAllByTestId('row-recording_mode').map((c) => c.textContent)).toEqual([RECORDING_MODE_LABELS.inbound, RECORDING_INHERIT_LABEL]);
  });
});
