import { createContext, useContext, useMemo, useState } from 'react';
import type { CallReportRow } from '@tongdai/contracts';
import { fetchRecordingAudio, fetchVoicemailOfCall } from './recording.api';
import { RecordingPlayer } from './RecordingPlayer';

/** What a row may play: its call's recording, or the voicemail message its caller left (issue 16). */
export type AudioKind = 'recording' | 'voicemail';
/** One key per sound of the list ("recording-12", "voicemail-3"): ids of the two kinds may be equal. */
export const audioKey = (kind: AudioKind, id: number) => `${kind}-${id}`;

interface Recordings {
  /** The sound whose player is open (one at a time, so one sound at a time). */
  openKey: string | null;
  toggle: (key: string) => void;
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
  const [openKey, setOpenKey] = useState<string | null>(null);
  const value = useMemo<Recordings>(() => ({ openKey, toggle: (key) => setOpenKey((open) => (open === key ? null : key)) }), [openKey]);
  const detail = (row: CallReportRow) => {
    const sounds = [
      row.recording && { key: audioKey('recording', row.recording.id), kind: 'recording' as const, fetch: () => fetchRecordingAudio(row.recording!.id) },
      row.voicemail && { key: audioKey('voicemail', row.voicemail.id), kind: 'voicemail' as const, fetch: () => fetchVoicemailOfCall(row.voicemail!.id) },
    ];
    const open = sounds.find((x) => x && x.key === openKey);
    if (!open) return null;
    return <RecordingPlayer key={open.key} row={row} audio={open} onGone={() => setOpenKey((k) => (k === open.key ? null : k))} />;
  };
  return { value, detail };
}
