import { Mp3Encoder } from '@breezystack/lamejs';
import { decodeMp3, looksLikeMp3 } from './mp3';

/** One second of a 600 Hz tone, encoded as an admin's MP3 would be. */
function mp3(rate: number, channels: 1 | 2): Buffer {
  const enc = new Mp3Encoder(channels, rate, 128);
  const pcm = Int16Array.from({ length: rate }, (_, i) => Math.round(10000 * Math.sin((2 * Math.PI * 600 * i) / rate)));
  const parts = [channels === 2 ? enc.encodeBuffer(pcm, pcm) : enc.encodeBuffer(pcm), enc.flush()];
  return Buffer.concat(parts.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
}

const rms = (x: Int16Array) => Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length);

describe('decodeMp3', () => {
  it.each([
    [8000, 1],
    [44100, 2],
  ] as const)('turns a %i Hz %i-channel MP3 into about one second at 8 kHz, as loud as it was', async (rate, channels) => {
    const bytes = mp3(rate, channels);
    expect(looksLikeMp3(bytes)).toBe(true);
    const out = await decodeMp3(bytes);
    // The encoder adds its delay and padding: a little more than 8000 samples.
    expect(out.length).toBeGreaterThan(7900);
    expect(out.length).toBeLessThan(9800);
    expect(rms(out.subarray(1000, 7000))).toBeGreaterThan(6000);
  });

  it('refuses bytes that are not MP3', async () => {
    expect(looksLikeMp3(Buffer.from('RIFF....WAVE'))).toBe(false);
    await expect(decodeMp3(Buffer.alloc(2000, 7))).rejects.toThrow();
  });
});
