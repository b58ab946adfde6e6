import type { MediaApi } from '../api';
import { decodeMp3, looksLikeMp3 } from './mp3';
import { decodeWav } from './wav';

/**
 * Greetings as 8 kHz samples (WAV or MP3), fetched from the API once and kept a minute (an
 * admin's new upload is heard on the next call after that). A file the worker cannot decode is
 * reported and replaced by the caller's default prompt.
 */
export class AudioLibrary {
  private readonly cache = new Map<string, { at: number; pcm: Promise<Int16Array | null> }>();

  constructor(
    private readonly api: MediaApi,
    private readonly log: (msg: string) => void = () => undefined,
    private readonly ttlMs = 60_000,
  ) {}

  get(tenantId: number, id: number): Promise<Int16Array | null> {
    const key = `${tenantId}:${id}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.pcm;
    const pcm = this.load(tenantId, id);
    this.cache.set(key, { at: Date.now(), pcm });
    if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value!);
    return pcm;
  }

  private async load(tenantId: number, id: number): Promise<Int16Array | null> {
    try {
      const file = await this.api.audio(tenantId, id);
      if (!file) return null;
      return looksLikeMp3(file.bytes) ? await decodeMp3(file.bytes) : decodeWav(file.bytes);
    } catch (e) {
      this.log(`audio ${tenantId}/${id} not playable: ${e instanceof Error ? e.message : e}`);
      return null;
    }
  }
}
