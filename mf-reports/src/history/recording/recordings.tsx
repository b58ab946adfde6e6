import { createContext, useContext, useMemo, useState } from 'react';
import type { CallReportRow } from '@tongdai/contracts';
import { RecordingPlayer } from './RecordingPlayer';

interface Recordings {
  /** The recording whose player is open (one at a time, so one sound at a time). */
  openId: number | null;
  toggle: (id: number) => void;
}

const RecordingsContext = createContext<Recordings | null>(null);

/** Given by a history list to its rows' recording cells (the value of useRecordingRows). */
export const RecordingsProvider = RecordingsContext.Provider;

/** The open recording of the list its cells are in; null outside a list that plays recordings. */
export const useRecordings = () => useContext(RecordingsContext);

/**
 * A history list's recordings: which one is open (the provider's value) and the player row under
 * the call whose recording is open (EntityListScreen's rowDetail).
 */
export function useRecordingRows() {
  const [openId, setOpenId] = useState<number | null>(null);
  const value = useMemo<Recordings>(() => ({ openId, toggle: (id) => setOpenId((open) => (open === id ? null : id)) }), [openId]);
  const detail = (row: CallReportRow) => {
    const recording = row.recording;
    if (!recording || recording.id !== openId) return null;
    return <RecordingPlayer key={recording.id} row={row} recording={recording} onGone={() => setOpenId((open) => (open === recording.id ? null : open))} />;
  };
  return { value, detail };
}
