import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { CAMPAIGN_MODE_LABELS, CAMPAIGN_MODES, CAMPAIGN_MSG, MSG, type Campaign, type CampaignState, type ContactImportResult } from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { EntityFields, parseDraft, useEntityDraft } from '@tongdai/ui';
import '../i18n';
import { CampaignProgressCell } from './CampaignProgress';
import { marketingCampaign, surveyCampaign } from './campaigns.entities';
import { ImportPreview } from './ImportPreview';
import { StateActions } from './StateActions';

const mockPost = jest.fn();
const mockGet = jest.fn();
let allowed = true;
jest.mock('@tongdai/platform', () => ({ ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ post: mockPost, get: mockGet }), notify: jest.fn() }));
jest.mock('@tongdai/platform/react', () => ({ useCan: () => ({ can: () => allowed, featureEnabled: () => true }) }));

const wrap = (ui: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>{ui}</I18nextProvider>
    </QueryClientProvider>,
  );

const OPTIONS = {
  questions: [{ id: 7, text: 'Anh/chị hài lòng không?', category_name: 'CSKH' }, { id: 8, text: 'Góp ý khác', category_name: 'CSKH' }],
  agents: [{ id: 1, name: 'Quản trị', extension: '101' }], teams: [{ id: 4, name: 'Nhóm A' }], time_groups: [{ id: 2, name: 'Giờ hành chính' }],
  hotlines: [{ id: 5, number: '842873001111', advertising_identity: false }, { id: 6, number: '842873002222', advertising_identity: true }],
  data_sources: [], projects: [], profile_statuses: [], departments: [],
};

/** A campaign entity's form as the kit renders it; its draft is kept where the tests read it. */
let form!: ReturnType<typeof useEntityDraft>;
function Harness({ entity }: { entity: typeof surveyCampaign }) {
  form = useEntityDraft(entity, null);
  return <EntityFields entity={entity} form={form} />;
}

// Fluent's table measures its columns; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;

beforeEach(() => {
  allowed = true;
  mockPost.mockReset();
  mockGet.mockReset().mockReturnValue({ json: () => Promise.resolve({ data: OPTIONS }) });
});

describe('the campaign screens', () => {
  it('the preview shows the counts, the contacts as stored, each refused row, and nothing is imported until "bỏ qua dòng lỗi"', () => {
    const result: ContactImportResult = {
      columns: ['Họ tên', 'SĐT', 'Gói'], mapping: { name_column: 0, phone_column: 1 }, rows: 3, valid: 1, imported: 0, committed: false,
      sample: [{ name: 'Nguyễn An', number: '84912345678', fields: { Gói: 'A' } }],
      errors: [{ row: 3, name: 'Sai', phone: '123', message: MSG.phoneFormat }, { row: 4, name: 'Trùng', phone: '0912345678', message: CAMPAIGN_MSG.duplicateInFile(2) }],
    };
    const onSkip = jest.fn();
    const { rerender } = wrap(<ImportPreview result={result} skip={false} onSkip={onSkip} />);
    expect(screen.getByTestId('import-summary').textContent).toBe('3 dòng · 1 hợp lệ · 2 lỗi');
    expect(within(screen.getByTestId('sample-row')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Nguyễn An', '0912345678', 'Gói: A']);
    expect(screen.getAllByTestId('error-row').map((r) => within(r).getAllByRole('cell').at(-1)!.textContent)).toEqual(['Định dạng số điện thoại sai', 'Số điện thoại trùng với dòng 2']);
    expect(screen.getByText(/sẽ không nhập gì/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('skip-invalid'));
    expect(onSkip).toHaveBeenCalledWith(true);
    rerender(
      <QueryClientProvider client={new QueryClient()}><I18nextProvider i18n={i18n}><ImportPreview result={result} skip onSkip={onSkip} /></I18nextProvider></QueryClientProvider>,
    );
    expect(screen.getByText('2 dòng lỗi sẽ bị bỏ qua, chỉ nhập các dòng hợp lệ.')).toBeTruthy();
  });

  it.each<[CampaignState, string[]]>([
    ['draft', ['campaign-running', 'campaign-ended']],
    ['running', ['campaign-paused', 'campaign-ended']],
    ['paused', ['campaign-running', 'campaign-ended']],
    ['ended', []],
  ])('a %s campaign offers exactly the transitions the server allows', (state, actions) => {
    wrap(<div data-testid="actions"><StateActions family="survey" campaign={{ id: 3, name: 'Khảo sát Q4', state }} /></div>);
    expect(within(screen.getByTestId('actions')).queryAllByRole('button').map((b) => b.getAttribute('data-testid'))).toEqual(actions);
  });

  it('a state action is confirmed before it is sent; without campaign.run there is none', async () => {
    mockPost.mockReturnValue({ json: () => Promise.resolve({ data: { id: 3, state: 'paused' } }) });
    wrap(<StateActions family="marketing" campaign={{ id: 3, name: 'Khuyến mãi', state: 'running' }} />);
    expect(screen.getByTestId('campaign-paused').textContent).toBe('Tạm dừng');
    fireEvent.click(screen.getByTestId('campaign-paused'));
    expect(screen.getByTestId('confirm-dialog').textContent).toContain('Tạm dừng chiến dịch "Khuyến mãi"?');
    expect(mockPost).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('confirm'));
    await waitFor(() => expect(mockPost).toHaveBeenCalledWith('marketing-campaigns/3/state', { json: { to: 'paused' } }));
    allowed = false;
    const { container } = wrap(<StateActions family="marketing" campaign={{ id: 3, name: 'Khuyến mãi', state: 'running' }} />);
    expect(container.textContent).toBe('');
  });

  it('progress reads done of total and the results', () => {
    wrap(<CampaignProgressCell family="survey" campaign={{ id: 1, state: 'draft', progress: { total: 10, done: 4, pending: 6, by_result: { agreed: 3, busy: 1 }, refused: {} } }} />);
    expect(screen.getByTestId('campaign-progress').textContent).toBe('Đã gọi 4/10Đồng ý 3 · Máy bận 1');
    expect(screen.queryByTestId('campaign-dialer')).toBeNull();
  });

  it("a progressive campaign's progress adds the dialer's calls now, its ready agents and the abandoned rate", () => {
    const dialer = { calling: 2, talking: 3, ready: 5, answered: 81, abandoned: 1, hotline_minute: null };
    wrap(<CampaignProgressCell family="survey" campaign={{ id: 2, state: 'draft', progress: { total: 90, done: 80, pending: 10, by_result: { agreed: 79, abandoned: 1 }, refused: {}, dialer } }} />);
    expect(screen.getByTestId('campaign-progress').textContent).toContain('Bỏ lỡ (không có nhân viên nhận) 1');
    expect(screen.getByTestId('campaign-dialer').textContent).toBe('Đang gọi 2 · Đang nói chuyện 3 · Sẵn sàng 5 · Bỏ lỡ 1,2% (1/81)');
    expect(screen.queryByTestId('campaign-hotline-minute')).toBeNull();
  });

  it("a dialer campaign whose hotline has a calls-per-minute cap says how much of its minute is used, and when calls wait for it", () => {
    const progress = (started: number) => ({ total: 90, done: 10, pending: 80, by_result: {}, refused: {}, dialer: { calling: 2, talking: 0, ready: 4, answered: 0, abandoned: 0, hotline_minute: { cap: 30, started } } });
    const { unmount } = wrap(<CampaignProgressCell family="survey" campaign={{ id: 4, state: 'draft', progress: progress(12) }} />);
    expect(screen.getByTestId('campaign-hotline-minute').textContent).toBe('Hotline: 12/30 cuộc trong 1 phút qua');
    unmount();
    wrap(<CampaignProgressCell family="survey" campaign={{ id: 5, state: 'draft', progress: progress(30) }} />);
    expect(screen.getByTestId('campaign-hotline-minute').textContent).toBe('Hotline: đủ 30 cuộc/phút, cuộc gọi tiếp theo chờ');
  });

  it("the survey form asks for questions and an agent; marketing asks for a script; the hotline list marks advertising identities", async () => {
    wrap(<Harness entity={surveyCampaign} />);
    await screen.findByRole('option', { name: '02873002222 — đã đăng ký định danh quảng cáo' });
    expect(screen.getByTestId('field-question_ids')).toBeTruthy();
    const parsed = parseDraft(surveyCampaign.schema, { ...form.draft, name: 'Khảo sát', hotline_id: '5' });
    expect(parsed.ok === false && parsed.errors).toEqual({ question_ids: CAMPAIGN_MSG.questionsMin, agent_ids: CAMPAIGN_MSG.agentsMin });
    expect((screen.getByTestId('field-retry_busy_min') as HTMLInputElement).value).toBe('30');
    const marketing = parseDraft(marketingCampaign.schema, { ...form.draft, name: 'Khuyến mãi', hotline_id: '6', agent_ids: ['1'], script: '' });
    expect(marketing.ok === false && marketing.errors).toEqual({ script: CAMPAIGN_MSG.scriptRequired });
    const ok = parseDraft(surveyCampaign.schema, { ...form.draft, name: 'Khảo sát', hotline_id: '5', question_ids: ['8', '7'], agent_ids: ['1'] });
    expect(ok.ok && ok.input).toMatchObject({ question_ids: [8, 7], agent_ids: [1], hotline_id: 5, retry_busy_min: 30, max_attempts: 3, purpose: 'care' });
  });

  it('the form asks how the calls are placed (preview unless chosen); the list says it under the purpose and hotline', async () => {
    wrap(<Harness entity={marketingCampaign} />);
    const mode = (await screen.findByTestId('field-mode')) as HTMLSelectElement;
    expect(within(mode).getAllByRole('option').map((o) => o.textContent)).toEqual([CAMPAIGN_MODE_LABELS.preview, CAMPAIGN_MODE_LABELS.progressive, CAMPAIGN_MODE_LABELS.predictive]);
    expect(mode.value).toBe('preview');
    expect(screen.getByText('Chế độ gọi')).toBeTruthy();
    const base = { name: 'Khuyến mãi', hotline_id: '6', agent_ids: ['1'], script: 'Chào {{name}}' };
    const preview = parseDraft(marketingCampaign.schema, { ...form.draft, ...base });
    expect(preview.ok && preview.input).toMatchObject({ mode: 'preview' });
    fireEvent.change(mode, { target: { value: 'progressive' } });
    await waitFor(() => expect(form.draft.mode).toBe('progressive'));
    const progressive = parseDraft(marketingCampaign.schema, { ...form.draft, ...base });
    expect(progressive.ok && progressive.input).toMatchObject({ mode: 'progressive' });
    // The abandon cap is asked only of a predictive campaign: 3 % unless set, 1–3 %.
    expect(screen.queryByTestId('field-abandon_cap_pct')).toBeNull();
    fireEvent.change(mode, { target: { value: 'predictive' } });
    const cap = (await screen.findByTestId('field-abandon_cap_pct')) as HTMLInputElement;
    expect(cap.value).toBe('3');
    expect(screen.getByText('Tỷ lệ bỏ lỡ tối đa')).toBeTruthy();
    fireEvent.change(cap, { target: { value: '2' } });
    await waitFor(() => expect(form.draft.abandon_cap_pct).toBe('2'));
    const predictive = parseDraft(marketingCampaign.schema, { ...form.draft, ...base });
    expect(predictive.ok && predictive.input).toMatchObject({ mode: 'predictive', abandon_cap_pct: 2 });
    const over = parseDraft(marketingCampaign.schema, { ...form.draft, ...base, abandon_cap_pct: '5' });
    expect(over.ok === false && over.errors).toEqual({ abandon_cap_pct: 'Tối đa 3' });

    // No automated voice survey for marketing: it is a survey's mode only.
    expect(parseDraft(marketingCampaign.schema, { ...form.draft, ...base, mode: 'voice' }).ok).toBe(false);

    const cell = surveyCampaign.columns.find((c) => c.key === 'purpose')!;
    const row = { purpose: 'care', hotline_number: '842873001111', mode: 'progressive' } as Campaign;
    wrap(<div data-testid="cell">{cell.render(row, { t: i18n.getFixedT(null, 'survey') })}</div>);
    expect(screen.getByTestId('row-mode').textContent).toBe('Gọi tự động');
    expect(within(screen.getByTestId('cell')).getByTitle('02873001111 · ' + CAMPAIGN_MODE_LABELS.progressive)).toBeTruthy();
  });

  it('a survey may be an automated voice survey: no agents to choose, its calls at once asked instead (5 unless set, 1–30)', async () => {
    wrap(<Harness entity={surveyCampaign} />);
    const mode = (await screen.findByTestId('field-mode')) as HTMLSelectElement;
    expect(within(mode).getAllByRole('option').map((o) => o.textContent)).toEqual(CAMPAIGN_MODES.map((m) => CAMPAIGN_MODE_LABELS[m]));
    expect(screen.getByTestId('field-agent_ids')).toBeTruthy();
    expect(screen.queryByTestId('field-voice_channels')).toBeNull();
    fireEvent.change(mode, { target: { value: 'voice' } });
    const channels = (await screen.findByTestId('field-voice_channels')) as HTMLInputElement;
    expect(channels.value).toBe('5');
    expect(screen.getByText('Số cuộc gọi cùng lúc')).toBeTruthy();
    expect(screen.queryByTestId('field-agent_ids')).toBeNull();
    expect(screen.queryByTestId('field-team_ids')).toBeNull();
    const base = { name: 'Khảo sát tự động', hotline_id: '5', question_ids: ['8'] };
    const ok = parseDraft(surveyCampaign.schema, { ...form.draft, ...base });
    expect(ok.ok && ok.input).toMatchObject({ mode: 'voice', voice_channels: 5, agent_ids: [], team_ids: [] });
    const over = parseDraft(surveyCampaign.schema, { ...form.draft, ...base, voice_channels: '31' });
    expect(over.ok === false && over.errors).toEqual({ voice_channels: 'Tối đa 30' });
    const cell = surveyCampaign.columns.find((c) => c.key === 'purpose')!;
    wrap(<div data-testid="voice-cell">{cell.render({ purpose: 'care', hotline_number: '842873001111', mode: 'voice' } as Campaign, { t: i18n.getFixedT(null, 'survey') })}</div>);
    expect(within(screen.getByTestId('voice-cell')).getByTestId('row-mode').textContent).toBe('Khảo sát tự động');
    // Its progress: calls up and contacts who answered (no agents ready or talking, no abandoned rate).
    const dialer = { calling: 3, talking: 0, ready: 0, answered: 12, abandoned: 0, hotline_minute: null };
    wrap(<CampaignProgressCell family="survey" campaign={{ id: 9, state: 'draft', mode: 'voice', progress: { total: 40, done: 12, pending: 28, by_result: { agreed: 12 }, refused: {}, dialer } }} />);
    expect(screen.getByTestId('campaign-dialer').textContent).toBe('Đang gọi 3 · Đã nghe máy 12');
  });
});
