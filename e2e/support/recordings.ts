import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Each channel's RMS (0–1) of an MP3, over [from, to) seconds (the whole file by default), decoded by
 * the media worker's decoder in a child node (it is an ES module).
 */
export function channelLevels(file: string, from = 0, to = Infinity): number[] {
  const script = [
    "const { MPEGDecoder } = await import('mpg123-decoder');",
    "const { readFileSync } = await import('node:fs');",
    'const [file, from, to] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];',
    'const d = new MPEGDecoder(); await d.ready;',
    'const r = d.decode(new Uint8Array(readFileSync(file)));',
    'const [a, b] = [Math.floor(from * r.sampleRate), Math.min(r.samplesDecoded, Math.floor(to * r.sampleRate))];',
    'process.stdout.write(JSON.stringify(r.channelData.map((c) => Math.sqrt(c.subarray(a, b).reduce((s, v) => s + v * v, 0) / (b - a)))));',
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script, file, String(from), String(to === Infinity ? 1e9 : to)], { cwd: resolve(import.meta.dirname, '../../media') }).toString());
}
