import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import {
  SUMMARY_LABELS as L, formatCsat, type CallFigures, type DepartmentTeamSummaryResponse, type ExtensionSummaryResponse,
} from '@tongdai/contracts';
import { i18n } from '@tongdai/platform';
import { DepartmentTeamScreen } from './DepartmentTeamScreen';
import { ExtensionSummaryScreen } from './ExtensionSummaryScreen';

/** The summary tables' CSAT column (issue 34), over a fake reports API. */
let answers: Record<string, unknown>;
jest.mock('@tongdai/platform', () => {
  const get = (url: string) => {
    const body = Promise.resolve().then(() => answers[url] ?? { data: {} });
    return Object.assign(body, { json: () => body });
  };
  return { ...jest.requireActual('@tongdai/platform'), tenantApi: () => ({ get }) };
});
// The charts library is not what is tested here (and jsdom does not lay it out).
jest.mock('./SummaryCharts', () => ({ __esModule: true, default: () => null }));

const figures = (over: Partial<CallFigures> = {}): CallFigures => ({
  calls: 20, calls_in: 12, calls_out: 6, calls_internal: 2, answered: 15, voicemail: 1, auto: 0, missed: 4, busy: 1, failed: 0, blocked: 0,
  talk_sec: 1800, avg_talk_sec: 120, wait_sec: 90, answer_rate: 0.75, csat_count: 0, csat_avg: null, ...over,
});
const person = { user_id: 7, full_name: 'Nguyễn Văn An', department_id: 1, team_id: 2 };
const BY_EXTENSION: ExtensionSummaryResponse = {
  data: [
    { ...figures({ csat_count: 12, csat_avg: 4.5 }), extension: '101', ...person },
    { ...figures(), extension: '102', ...person, full_name: 'Trần Thị Bình' },
    { ...figures({ csat_count: 1, csat_avg: 3 }), extension: '103', ...person, full_name: 'Lê Văn Cường' },
  ],
};
const BY_DEPARTMENT: DepartmentTeamSummaryResponse = {
  data: [{
    ...figures({ csat_count: 15, csat_avg: 4.2 }), department_id: 1, department: 'Chăm sóc khách hàng',
    teams: [
      { ...figures({ csat_count: 12, csat_avg: 4.5 }), team_id: 2, team: 'Nhóm A' },
      { ...figures(), team_id: null, team: null },
    ],
  }],
  series: { bucket: 'hour', points: [] },
};

beforeEach(() => {
  answers = {
    'reports/by-extension': BY_EXTENSION,
    'reports/by-department-team': BY_DEPARTMENT,
    'reports/call-history/options': { data: { extensions: [], departments: [], teams: [], queues: [], hotlines: [] } },
  };
});

function show(el: ReactElement) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<I18nextProvider i18n={i18n}><QueryClientProvider client={qc}><MemoryRouter>{el}</MemoryRouter></QueryClientProvider></I18nextProvider>);
}
const headers = () => within(screen.getByTestId('summary-table')).getAllByRole('columnheader').map((h) => h.textContent);
const csat = (row: HTMLElement) => within(row).getByTestId('fig-csat').textContent;

describe('Hài lòng (CSAT) in the call summaries', () => {
  it('by extension: the mean with one decimal and the count rated, "—" where no call was rated', async () => {
    show(<ExtensionSummaryScreen />);
    await waitFor(() => expect(screen.getAllByTestId('summary-row')).toHaveLength(3));
    // The last column, after the answer rate.
    expect(headers().slice(-2)).toEqual([L.answer_rate, L.csat]);
    expect(screen.getAllByTestId('summary-row').map(csat)).toEqual(['4,5 (12)', '—', '3,0 (1)']);
  });

  it('by department and team: each department and team row', async () => {
    show(<DepartmentTeamScreen />);
    await waitFor(() => expect(screen.getAllByTestId('department-row')).toHaveLength(1));
    expect(headers().at(-1)).toBe(L.csat);
    expect(csat(screen.getByTestId('department-row'))).toBe('4,2 (15)');
    expect(screen.getAllByTestId('team-row').map(csat)).toEqual(['4,5 (12)', '—']);
  });

  it('formats a score the Vietnamese way, one decimal', () => {
    expect([formatCsat(4.5), formatCsat(5), formatCsat(3.96), formatCsat(null)]).toEqual(['4,5', '5,0', '4,0', '—']);
  });
});
