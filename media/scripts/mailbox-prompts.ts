/**
 * Writes the voicemail menu's Vietnamese prompts (issue 16: *97 / *98) into media/assets as 8 kHz
 * mono WAVs, from espeak-ng's Vietnamese voice (the same voice as voicemail-prompt-vi.wav). The
 * files are committed: the worker never needs espeak-ng. Run again after changing a phrase:
 *   cd media && npx tsx scripts/mailbox-prompts.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAILBOX_PHRASES } from '../src/audio/prompts';
import { decodeWav, encodeWav } from '../src/audio/wav';

const dir = mkdtempSync(join(tmpdir(), 'prompts-'));
try {
  for (const [name, text] of Object.entries(MAILBOX_PHRASES)) {
    const raw = join(dir, `${name}.wav`);
    const r = spawnSync('espeak-ng', ['-v', 'vi', '-s', '150', '-w', raw, text], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`espeak-ng failed on ${name}`);
    const pcm = decodeWav(readFileSync(raw));
    writeFileSync(join(__dirname, '../assets', `mailbox-${name}-vi.wav`), encodeWav(pcm));
    console.log(`${name}: ${(pcm.length / 8000).toFixed(2)} s`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
