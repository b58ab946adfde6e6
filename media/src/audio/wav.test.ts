import { decodeWav, encodeWav, UnsupportedAudio } from './wav';

function wav(o: { rate: number; channels: number; bits: 8 | 16; samples: number[] }): Buffer {
  const bytes = o.bits / 8;
  const data = Buffer.alloc(o.samples.length * bytes);
  o.samples.forEach((s, i) => (o.bits === 16 ? data.writeInt16LE(s, i * 2) : data.writeUInt8(s, i)));
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(o.channels, 22);
  head.writeUInt32LE(o.rate, 24);
  head.writeUInt32LE(o.rate * o.channels * bytes, 28);
  head.writeUInt16LE(o.channels * bytes, 32);
  head.writeUInt16LE(o.bits, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

describe('decodeWav', () => {
  it('keeps 8 kHz mono 16-bit as it is', () => {
    expect(Array.from(decodeWav(wav({ rate: 8000, channels: 1, bits: 16, samples: [0, 1000, -1000, 32767] })))).toEqual([0, 1000, -1000, 32767]);
  });

  it('mixes stereo down and resamples 48 kHz to 8 kHz (one second stays one second)', () => {
    const n = 48000;
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = Math.round(10000 * Math.sin((2 * Math.PI * 440 * i) / 48000));
      samples.push(s, s);
    }
    const out = decodeWav(wav({ rate: 48000, channels: 2, bits: 16, samples }));
    expect(out.length).toBe(8000);
    const rms = Math.sqrt(out.reduce((a, x) => a + x * x, 0) / out.length);
    expect(rms).toBeGreaterThan(6000);
    expect(rms).toBeLessThan(7500);
  });

  it('reads 8-bit unsigned samples', () => {
    expect(Array.from(decodeWav(wav({ rate: 8000, channels: 1, bits: 8, samples: [128, 255, 0] })))).toEqual([0, 127 << 8, -128 << 8]);
  });

  it('refuses what is not a WAV file (an MP3 upload)', () => {
    expect(() => decodeWav(Buffer.from('ID3\u0003\u0000 mp3 bytes'))).toThrow(UnsupportedAudio);
  });
});

describe('encodeWav (a voicemail message)', () => {
  it('writes 8 kHz 16-bit mono PCM that reads back sample for sample, with its length in the header', () => {
    const pcm = Int16Array.from({ length: 800 }, (_, i) => Math.round(9000 * Math.sin(i / 3)));
    const wav = encodeWav(pcm);
    expect(wav.length).toBe(44 + 1600);
    expect([wav.toString('ascii', 0, 4), wav.toString('ascii', 8, 16), wav.toString('ascii', 36, 40)]).toEqual(['RIFF', 'WAVEfmt ', 'data']);
    expect([wav.readUInt32LE(24), wav.readUInt16LE(34), wav.readUInt32LE(40)]).toEqual([8000, 16, 1600]);
    expect(Array.from(decodeWav(wav))).toEqual(Array.from(pcm));
  });
});
