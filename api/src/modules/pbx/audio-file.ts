import { AUDIO_MAX_BYTES, AUDIO_MIME } from '@tongdai/contracts';

/**
 * What an uploaded audio file really is, from its bytes (the declared type and the file name are
 * whatever the client says): WAV (RIFF/WAVE with fmt and data chunks) or MP3 (MPEG audio frames,
 * optionally after an ID3v2 tag), and how long it plays.
 */
export interface AudioInfo {
  mime: (typeof AUDIO_MIME)[keyof typeof AUDIO_MIME];
  /** Seconds, to the millisecond. */
  duration: number;
}

/** A file with audio in it but not one to play (issue 12 §6: a 44-byte header-only WAV, a WAV claiming 4 GB). */
export interface AudioProblem {
  problem: string;
}
export const AUDIO_PROBLEM = {
  wavSize: 'Tệp WAV hỏng: kích thước dữ liệu không khớp với tệp',
  wavFormat: 'Tệp WAV có định dạng âm thanh không hợp lệ',
  tooShort: 'Âm thanh quá ngắn (tối thiểu 0,1 giây)',
  mp3Frames: 'Tệp MP3 hỏng: số khung không khớp với tệp',
} as const;
/** Shorter than this is no greeting (a header with no samples plays 0 s). */
export const MIN_AUDIO_SECONDS = 0.1;

const round = (s: number) => Math.round(s * 1000) / 1000;

// PCM, IEEE float, A-law, µ-law, WAVE_FORMAT_EXTENSIBLE.
const WAV_FORMATS = new Set([1, 3, 6, 7, 0xfffe]);

/** The fmt chunk describes audio a player can play: its byte rate follows from the other fields. */
function saneFormat(buf: Buffer, body: number): number | null {
  const format = buf.readUInt16LE(body);
  const channels = buf.readUInt16LE(body + 2);
  const rate = buf.readUInt32LE(body + 4);
  const byteRate = buf.readUInt32LE(body + 8);
  const align = buf.readUInt16LE(body + 12);
  const bits = buf.readUInt16LE(body + 14);
  const ok =
    WAV_FORMATS.has(format) &&
    channels >= 1 && channels <= 8 &&
    rate >= 4000 && rate <= 384_000 &&
    [8, 16, 24, 32, 64].includes(bits) &&
    align === (channels * bits) / 8 &&
    byteRate === rate * align;
  return ok ? byteRate : null;
}

/**
 * WAV: data chunk size / the fmt chunk's byte rate. A data size of 0 (streamed) plays what is
 * there, as does a file cut short; a size no upload can have (over AUDIO_MAX_BYTES, 0xFFFFFFFF
 * included) is refused, like a format whose numbers disagree.
 */
export function wavInfo(buf: Buffer): AudioInfo | AudioProblem | null {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') return null;
  let byteRate: number | null = 0;
  for (let off = 12; off + 8 <= buf.length; ) {
    const id = buf.toString('latin1', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    const body = off + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) return { problem: AUDIO_PROBLEM.wavFormat };
      byteRate = saneFormat(buf, body);
      if (byteRate === null) return { problem: AUDIO_PROBLEM.wavFormat };
    }
    if (id === 'data') {
      if (!byteRate) return null;
      if (size > AUDIO_MAX_BYTES) return { problem: AUDIO_PROBLEM.wavSize };
      return { mime: AUDIO_MIME.wav, duration: round(Math.min(size || Infinity, buf.length - body) / byteRate) };
    }
    off = body + size + (size & 1);
  }
  return null;
}

interface Frame {
  size: number;
  samples: number;
  sampleRate: number;
  /** Bytes between the header and a Xing/Info tag (Layer III side information). */
  sideInfo: number;
}

// Bitrates in kbit/s by [MPEG-1?][layer 1, 2, 3]; MPEG-2/2.5 share one table for layers 2 and 3.
const BITRATES = {
  v1: [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  v2: [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
};
// Sample rates by the header's version bits (0 = MPEG 2.5, 2 = MPEG 2, 3 = MPEG 1).
const SAMPLE_RATES: Record<number, number[]> = { 0: [11025, 12000, 8000], 2: [22050, 24000, 16000], 3: [44100, 48000, 32000] };

/** The MPEG audio frame whose header starts at `i`, or null. */
export function frameAt(buf: Buffer, i: number): Frame | null {
  if (i + 4 > buf.length || buf[i] !== 0xff || (buf[i + 1] & 0xe0) !== 0xe0) return null;
  const version = (buf[i + 1] >> 3) & 3;
  const layer = 4 - ((buf[i + 1] >> 1) & 3); // header bits 3,2,1 → layer 1,2,3
  const bitrateIdx = buf[i + 2] >> 4;
  const rateIdx = (buf[i + 2] >> 2) & 3;
  if (version === 1 || layer === 4 || bitrateIdx === 0 || bitrateIdx === 15 || rateIdx === 3) return null;
  const v1 = version === 3;
  const bitrate = (v1 ? BITRATES.v1 : BITRATES.v2)[layer - 1][bitrateIdx] * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIdx];
  const padding = (buf[i + 2] >> 1) & 1;
  const samples = layer === 1 ? 384 : layer === 2 || v1 ? 1152 : 576;
  const size = layer === 1 ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4 : Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  const mono = buf[i + 3] >> 6 === 3;
  const sideInfo = layer !== 3 ? 0 : v1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { size, samples, sampleRate, sideInfo };
}

/** Where the audio starts: after an ID3v2 tag (syncsafe size, optional footer). */
function afterId3(buf: Buffer): number {
  if (buf.length < 10 || buf.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((buf[6] & 0x7f) << 21) | ((buf[7] & 0x7f) << 14) | ((buf[8] & 0x7f) << 7) | (buf[9] & 0x7f);
  return 10 + size + (buf[5] & 0x10 ? 10 : 0);
}

/** A frame counts when the next one follows it (or the file ends there): random bytes rarely do both. */
function confirmedFrame(buf: Buffer, i: number): Frame | null {
  const f = frameAt(buf, i);
  if (!f) return null;
  const next = i + f.size;
  const tail = buf.length - next;
  return frameAt(buf, next) || tail === 0 || (tail === 128 && buf.toString('latin1', next, next + 3) === 'TAG') ? f : null;
}

/** Frames from a Xing/Info or VBRI header, when the encoder wrote one (VBR files). */
function taggedFrames(buf: Buffer, i: number, f: Frame): number | null {
  const xing = i + 4 + f.sideInfo;
  const tag = buf.toString('latin1', xing, xing + 4);
  if ((tag === 'Xing' || tag === 'Info') && xing + 12 <= buf.length && buf.readUInt32BE(xing + 4) & 1) return buf.readUInt32BE(xing + 8);
  const vbri = i + 36;
  if (buf.toString('latin1', vbri, vbri + 4) === 'VBRI' && vbri + 18 <= buf.length) return buf.readUInt32BE(vbri + 14);
  return null;
}

export function mp3Info(buf: Buffer): AudioInfo | AudioProblem | null {
  const start = afterId3(buf);
  // Encoders may pad between the tag and the first frame; a frame must be found early.
  let i = start;
  const limit = Math.min(buf.length, start + 4096);
  while (i < limit && !confirmedFrame(buf, i)) i++;
  const first = i < limit ? confirmedFrame(buf, i) : null;
  if (!first) return null;
  const tagged = taggedFrames(buf, i, first);
  if (tagged !== null) {
    const seconds = (tagged * first.samples) / first.sampleRate;
    // No MPEG audio is below 8 kbit/s: longer than the largest upload could play at that rate is a lie.
    return seconds > (AUDIO_MAX_BYTES * 8) / 8000 ? { problem: AUDIO_PROBLEM.mp3Frames } : { mime: AUDIO_MIME.mp3, duration: round(seconds) };
  }
  let seconds = 0;
  for (let f: Frame | null = first; f; f = frameAt(buf, i)) {
    seconds += f.samples / f.sampleRate;
    i += f.size;
  }
  return { mime: AUDIO_MIME.mp3, duration: round(seconds) };
}

/** WAV or MP3 with its duration, what is wrong with one, or null for anything else. */
export function inspectAudio(buf: Buffer): AudioInfo | AudioProblem | null {
  const info = wavInfo(buf) ?? mp3Info(buf);
  if (info && 'duration' in info && info.duration < MIN_AUDIO_SECONDS) return { problem: AUDIO_PROBLEM.tooShort };
  return info;
}
