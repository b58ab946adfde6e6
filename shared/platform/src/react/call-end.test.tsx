import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { PbxCallEvent } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from '../global';
import '../realtime';
import { useRefetchOnCallEnd } from './call-end';

/** The realtime module's channel: events pushed here reach pbxEvents$ as if the socket had brought them. */
const channel = getOrCreateGlobalSingleton<{ subject: { next(e: PbxCallEvent): void } }>('pbxEvents', () => { throw new Error('realtime not loaded'); });
const base = { kind: 'tongdai.pbx-call' as const, version: 1 as const, at: 0 };

describe('useRefetchOnCallEnd', () => {
  it('refetches the list once after calls end (several ends at once: one refetch), not on other events', async () => {
    const qc = new QueryClient();
    let fetched = 0;
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
    renderHook(() => {
      useQuery({ queryKey: ['reports', 'call-history', 'list', { page: 1 }], queryFn: async () => ++fetched });
      useRefetchOnCallEnd(['reports', 'call-history', 'list'], 20);
    }, { wrapper });
    await waitFor(() => expect(fetched).toBe(1));
    act(() => channel.subject.next({ ...base, callId: 'c1', type: 'ringing', caller: '0901', callee: '101', extensions: ['101'] }));
    await new Promise((r) => setTimeout(r, 60));
    expect(fetched).toBe(1);
    act(() => {
      channel.subject.next({ ...base, callId: 'c1', type: 'ended', disposition: 'ANSWERED', extension: '101' });
      channel.subject.next({ ...base, callId: 'c2', type: 'ended', disposition: 'VOICEMAIL', extension: null });
    });
    await waitFor(() => expect(fetched).toBe(2));
    await new Promise((r) => setTimeout(r, 60));
    expect(fetched).toBe(2);
  });
});
