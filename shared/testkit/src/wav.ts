/**
 * One WAV writer for every test: mono 16-bit PCM, built byte by byte (no audio tool needed), as an
 * admin would upload a greeting. Default: 1 s of 600 Hz at about -9 dBFS, 8 kHz.
 */
export function toneWav(seconds = 1, freq = 600, amplitude = 12000, rate = 8000): Buffer {
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) data.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / rate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** `seconds` of silence at `rate` Hz, as a WAV file. */
export const silentWav = (seconds = 1, rate = 8000): Buffer => toneWav(seconds, 0, 0, rate);

/** Bad WAVs an attacker sends as greetings (issue 12 §6). The 44-byte header of a file with no samples. */
export const headerOnlyWav = (): Buffer => toneWav(0);

/** 1 s of tone whose data chunk claims `size` bytes (0xFFFFFFFF: "4 GB"). */
export function wavClaiming(size: number): Buffer {
  const file = toneWav(1);
  file.writeUInt32LE(size, 40);
  return file;
}

/** 1 s of tone with fields of its fmt chunk replaced. */
export function wavWithFormat(fmt: Partial<Record<'format' | 'channels' | 'rate' | 'byteRate' | 'align' | 'bits', number>>): Buffer {
  const file = toneWav(1);
  const at = { format: [20, 2], channels: [22, 2], rate: [24, 4], byteRate: [28, 4], align: [32, 2], bits: [34, 2] } as const;
  for (const [key, value] of Object.entries(fmt)) {
    const [off, len] = at[key as keyof typeof at];
    if (len === 2) file.writeUInt16LE(value, off);
    else file.writeUInt32LE(value, off);
  }
  return file;
}
