import { useEffect } from 'react';
import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles } from '@fluentui/react-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PERM, RECORDING_API, RECORDING_MSG, type One, type RecordingStorageState } from '@tongdai/contracts';
import { connectPbxEvents, realtimeOpens$, recordingStorageEvents$, tenantApi } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { formatViDateTime } from '@tongdai/ui';

const useStyles = makeStyles({ bar: { marginBottom: '16px' } });

export const RECORDING_STORAGE_KEY = ['recording-storage'] as const;

/**
 * The alarm bar at the top of every screen while the recordings' storage is full (issue 41), for
 * the tenant's admins (setting.view) only: the state from GET /recording-storage, then its changes
 * as the API pushes them on the real-time channel (the socket is held while shown); a new read after
 * the socket reopens (a change in between is not replayed). Gone as soon as there is space again.
 */
export function RecordingStorageAlarm() {
  return useCan().can(PERM.setting.view) ? <AlarmBar /> : null;
}

function AlarmBar() {
  const s = useStyles();
  const qc = useQueryClient();
  const state = useQuery({
    queryKey: RECORDING_STORAGE_KEY,
    queryFn: () => tenantApi().get(RECORDING_API.storage).json<One<RecordingStorageState>>().then((r) => r.data),
    retry: false,
  });
  useEffect(() => {
    const release = connectPbxEvents();
    let first: number | null = null;
    const subs = [
      recordingStorageEvents$.subscribe(({ full_since }) => qc.setQueryData<RecordingStorageState>(RECORDING_STORAGE_KEY, { full_since })),
      realtimeOpens$.subscribe((n) => {
        // The first opening seen here is the one the read already follows.
        if (first === null) first = n;
        else if (n > first) void qc.invalidateQueries({ queryKey: RECORDING_STORAGE_KEY });
      }),
    ];
    return () => {
      subs.forEach((sub) => sub.unsubscribe());
      release();
    };
  }, [qc]);
  const since = state.data?.full_since;
  if (!since) return null;
  return (
    <MessageBar intent="error" layout="multiline" className={s.bar} data-testid="recording-storage-alarm" role="alert">
      <MessageBarBody>
        <MessageBarTitle>{RECORDING_MSG.storageFullTitle}</MessageBarTitle>
        {RECORDING_MSG.storageFull(formatViDateTime(since, { seconds: false }))}
      </MessageBarBody>
    </MessageBar>
  );
}
