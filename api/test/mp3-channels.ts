import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * An MP3's channels, decoded by the media worker's own decoder (mpg123 in WebAssembly, an ES
 * module a suite's CommonJS transform cannot load: a child node process does).
 */
export function mp3Channels(file: string): { channels: Float32Array[]; sampleRate: number } {
  const script = [
    "const { MPEGDecoder } = await import('mpg123-decoder');",
    "const { readFileSync } = await import('node:fs');",
    'const d = new MPEGDecoder(); await d.ready;',
    'const r = d.decode(new Uint8Array(readFileSync(process.argv[1])));',
    'process.stdout.write(String(r.sampleRate));',
    "for (const c of r.channelData) process.stdout.write('\\n' + Buffer.from(c.buffer, c.byteOffset, r.samplesDecoded * 4).toString('base64'));",
  ].join('\n');
  const [rate, ...channels] = execFileSync(process.execPath, ['--input-type=module', '-e', script, file], { cwd: resolve(__dirname, '../../media'), maxBuffer: 256 << 20 }).toString().split('\n');
  return { sampleRate: Number(rate), channels: channels.map((b) => { const buf = Buffer.from(b, 'base64'); return new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4); }) };
}
