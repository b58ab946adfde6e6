import { act, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { Subject } from 'rxjs';
import type { PbxCallEvent } from '@tongdai/contracts';
import { useMissedBadge } from './useRecentCalls';

const asked: string[] = [];
let missed = 0;
const events = new Subject<PbxCallEvent>();
jest.mock('@tongdai/platform', () => ({
  ...jest.requireActual('@tongdai/platform'),
  pbxEvents$: { subscribe: (fn: (e: PbxCallEvent) => void) => events.subscribe(fn) },
  tenantApi: () => ({
    get: (path: string, o: { searchParams: Record<string, string> }) => {
      asked.push(`${path}?${new URLSearchParams(o.searchParams)}`);
      return { json: async () => ({ data: [], next: null, missed }) };
    },
  }),
}));

const base = { kind: 'tongdai.pbx-call', version: 1, at: 0 } as const;
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;

beforeEach(() => { asked.length = 0; missed = 0; localStorage.clear(); });

describe('useMissedBadge (the count on "Gần đây")', () => {
  it('counts from the first start, refetches when one of this extension\'s calls ends (not another agent\'s), clears on open', async () => {
    const { result } = renderHook(() => useMissedBadge('102'), { wrapper });
    await waitFor(() => expect(asked).toHaveLength(1));
    const since = new URLSearchParams(asked[0].split('?')[1]).get('missed_since')!;
    expect(Date.now() - Date.parse(since)).toBeLessThan(5000);
    expect(localStorage.getItem('tongdai.softphone.recentSeen..102')).toBe(since);
    expect(result.current.count).toBe(0);

    // Another agent's call ends: nothing asked.
    act(() => { events.next({ ...base, type: 'ringing', callId: 'x', caller: '103', callee: '104', extensions: ['104'] }); });
    act(() => { events.next({ ...base, type: 'ended', callId: 'x', disposition: 'NO ANSWER', extension: null }); });
    // 101 → 102, not answered: the badge asks again and shows the count.
    missed = 1;
    act(() => { events.next({ ...base, type: 'ringing', callId: 'm', caller: '101', callee: '102', extensions: ['102'] }); });
    act(() => { events.next({ ...base, type: 'ended', callId: 'm', disposition: 'NO ANSWER', extension: null }); });
    await waitFor(() => expect(result.current.count).toBe(1));
    expect(asked).toHaveLength(2);

    // Opened: counted from now on.
    missed = 0;
    act(() => result.current.clear());
    await waitFor(() => expect(result.current.count).toBe(0));
    expect(Date.parse(localStorage.getItem('tongdai.softphone.recentSeen..102')!)).toBeGreaterThanOrEqual(Date.parse(since));
  });
});
