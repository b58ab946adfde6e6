import { useEffect, useRef, useState } from 'react';
import { toApiError } from '@tongdai/platform';

export type PlaybackStatus = 'idle' | 'loading' | 'playing' | 'paused' | 'error';

/** Playing one clip pauses the one playing before (one list, one sound at a time). */
let current: HTMLAudioElement | null = null;

/**
 * Plays audio that needs the bearer token: an <audio src> cannot send it, so the bytes are
 * fetched once (`load`), kept as an object URL for replays, and the URL is revoked on unmount.
 * The status follows the element's own events, so it says what the browser really does.
 */
export function useBlobAudio(load: () => Promise<Blob>) {
  const ref = useRef<HTMLAudioElement>(null);
  const url = useRef<string | null>(null);
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
    if (!audio) return;
    if (!audio.paused) return audio.pause();
    setError(null);
    try {
      if (!url.current) {
        setStatus('loading');
        url.current = URL.createObjectURL(await load());
        audio.src = url.current;
      }
      if (current && current !== audio && !current.paused) current.pause();
      current = audio;
      await audio.play();
    } catch (e) {
      setStatus('error');
      setError(e instanceof DOMException ? 'Trình duyệt không phát được tệp âm thanh này' : (await toApiError(e)).message);
    }
  };

  /** Spread on the <audio> element. */
  const events = {
    onPlaying: () => setStatus('playing'),
    onPause: () => setStatus('paused'),
    onEnded: () => setStatus('paused'),
  };

  return { ref, status, error, toggle, events };
}
