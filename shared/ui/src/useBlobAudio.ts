import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import type { ApiErrorBody } from '@tongdai/contracts';
import { toApiError } from '@tongdai/platform';

export type PlaybackStatus = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

/** Playing one clip pauses the one playing before (one list, one sound at a time). */
let current: HTMLAudioElement | null = null;

const UNPLAYABLE = 'Trình duyệt không phát được tệp âm thanh này';

export interface BlobAudioOptions {
  /** The message shown for a refused fetch (e.g. a 404 named in the area's words); default: the API's message. */
  messageOf?: (error: ApiErrorBody) => string;
}

/**
 * Plays audio that needs the bearer token (greetings, call recordings): an <audio src> cannot send
 * it, so the bytes are fetched once (`load`), kept as an object URL for replays, and the URL is
 * revoked on unmount. The status follows the element's own events, so it says what the browser
 * really does; a play started from the element's own controls pauses the clip playing elsewhere too.
 */
export function useBlobAudio(load: () => Promise<Blob>, options: BlobAudioOptions = {}) {
  const ref = useRef<HTMLAudioElement>(null);
  const url = useRef<string | null>(null);
  // A second press while the bytes are on their way must not fetch them again.
  const pending = useRef(false);
  const [status, setStatus] = useState<PlaybackStatus>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // The element as mounted: React has already detached the ref when this cleanup runs.
    const audio = ref.current;
    return () => {
      if (audio && !audio.paused) audio.pause();
      if (current === audio) current = null;
      if (url.current) URL.revokeObjectURL(url.current);
      url.current = null;
    };
  }, []);

  const toggle = async () => {
    const audio = ref.current;
    if (!audio || pending.current) return;
    if (!audio.paused) return audio.pause();
    setError(null);
    try {
      if (!url.current) {
        setStatus('loading');
        pending.current = true;
        const blob = await load().finally(() => { pending.current = false; });
        // Unmounted meanwhile (the row closed): nothing to play, nothing to keep.
        if (ref.current !== audio) return;
        url.current = URL.createObjectURL(blob);
        audio.src = url.current;
      }
      if (current && current !== audio && !current.paused) current.pause();
      current = audio;
      await audio.play();
    } catch (e) {
      // Not a failure: the browser wants a press of its own play (no gesture yet), or a pause came first.
      if (e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return setStatus(audio.paused ? 'paused' : 'playing');
      setStatus('error');
      setError(e instanceof DOMException ? UNPLAYABLE : await toApiError(e).then((body) => options.messageOf?.(body) ?? body.message));
    }
  };

  /** Spread on the <audio> element. */
  const events = {
    onPlay: (e: SyntheticEvent<HTMLAudioElement>) => {
      const audio = e.currentTarget;
      if (current && current !== audio && !current.paused) current.pause();
      current = audio;
    },
    onPlaying: () => setStatus('playing'),
    onPause: () => setStatus('paused'),
    onEnded: () => setStatus('paused'),
  };

  return { ref, status, error, toggle, events };
}
