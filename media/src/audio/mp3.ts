import { resample, RATE, UnsupportedAudio } from './wav';

/**
 * MP3 greetings (the admin screens accept them) to 8 kHz samples, with mpg123 compiled to
 * WebAssembly (mpg123-decoder): no native library, no external tool. Channels are mixed down.
 */
export async function decodeMp3(bytes: Uint8Array): Promise<Int16Array> {
  const { channels, sampleRate } = await decodeMp3Channels(bytes);
  const mono = new Float32Array(channels[0].length);
  for (const ch of channels) for (let i = 0; i < mono.length; i++) mono[i] += (ch[i] * 32767) / channels.length;
  return resample(mono, sampleRate, RATE);
}

/** ID3 tag or an MPEG audio frame sync at the start. */
export const looksLikeMp3 = (b: Uint8Array) => (b[0] === 0x49 && b[1] === 0x44 && b[2] === 0x33) || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0);

/** An MP3's channels as they are (a call recording: caller left, other party right), not mixed. */
export async function decodeMp3Channels(bytes: Uint8Array): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate } = decoder.decode(bytes);
    if (!samplesDecoded || !channelData.length) throw new UnsupportedAudio('MP3 without audio frames');
    return { channels: channelData.map((c) => c.slice(0, samplesDecoded)), sampleRate };
  } finally {
    decoder.free();
  }
}
