import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, encodeWav } from '../src/audio/wav';

/**
 * Writes each `[file, text]` as an 8 kHz mono WAV in media/assets from espeak-ng's Vietnamese voice
 * (the prompt scripts' one way to speak); the files are committed, the worker never runs espeak-ng.
 */
export function speakToAssets(prompts: [file: string, text: string][], speed = 150): void {
  const dir = mkdtempSync(join(tmpdir(), 'prompts-'));
  try {
    for (const [file, text] of prompts) {
      const raw = join(dir, 'raw.wav');
      const r = spawnSync('espeak-ng', ['-v', 'vi', '-s', String(speed), '-w', raw, text], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`espeak-ng failed on ${file}`);
      const pcm = decodeWav(readFileSync(raw));
      writeFileSync(join(__dirname, '../assets', file), encodeWav(pcm));
      console.log(`${file}: ${(pcm.length / 8000).toFixed(2)} s`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
