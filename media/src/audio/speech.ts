import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PROMPT } from './tones';
import { decodeWav } from './wav';

/**
 * Vietnamese speech for texts only known when a job comes (an automated voice survey's intro,
 * questions and thanks, issue 34): espeak-ng's Vietnamese voice writes a WAV that decodeWav brings
 * to 8 kHz. Prepared before the call is placed, never while someone listens: a survey's prompts are
 * the same for every contact of a campaign, so they are kept in memory and made once.
 */

export const ESPEAK = 'espeak-ng';

/** Said before a question is asked again (no key, or a key that does not answer it). */
export const REPEAT_TEXT = 'Xin lỗi, chúng tôi chưa nhận được câu trả lời hợp lệ.';

/** How many texts are kept (a few campaigns' prompts; the oldest used goes first). */
export const SPEECH_CACHE_SIZE = 200;

/** A text espeak-ng has not spoken in this long is given up (a stuck process must not hold a call). */
const ESPEAK_TIMEOUT_MS = 15_000;

const cache = new Map<string, Promise<Int16Array>>();
let failureLogged = false;

const defaultLog = (m: string) => console.error(`[media] ${m}`);

/**
 * `text` as 8 kHz samples. The promise is shared: two jobs asking for the same text at once run
 * espeak-ng once. Without espeak-ng (or when it fails) the tone prompt is said instead, never
 * silence, and that is logged once; such a result is not kept, so a repaired install is used at once.
 */
export function prepareSpeech(text: string, log: (m: string) => void = defaultLog): Promise<Int16Array> {
  const cached = cache.get(text);
  if (cached) {
    // Used again: it moves to the newest end, so a running campaign's prompts are not the ones dropped.
    cache.delete(text);
    cache.set(text, cached);
    return cached;
  }
  const made = text.trim()
    ? speak(text).catch((e: unknown) => {
        if (!failureLogged) {
          failureLogged = true;
          log(`${ESPEAK} could not speak a prompt (${e instanceof Error ? e.message : e}): the tone prompt is said instead`);
        }
        if (cache.get(text) === made) cache.delete(text);
        return DEFAULT_PROMPT;
      })
    : Promise.resolve(new Int16Array(0));
  cache.set(text, made);
  if (cache.size > SPEECH_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return made;
}

/**
 * One run of espeak-ng into a temporary WAV. The text goes on stdin, not as an argument: a
 * tenant's text starting with "-" would otherwise be read as an option.
 */
async function speak(text: string): Promise<Int16Array> {
  const file = join(tmpdir(), `tongdai-speech-${process.pid}-${randomBytes(6).toString('hex')}.wav`);
  try {
    await new Promise<void>((resolve, reject) => {
      const p = spawn(ESPEAK, ['-v', 'vi', '--stdin', '-w', file], { stdio: ['pipe', 'ignore', 'pipe'] });
      // Our own timer, not spawn's `timeout`: that one is left running when the program is missing.
      const timer = setTimeout(() => p.kill('SIGKILL'), ESPEAK_TIMEOUT_MS);
      let err = '';
      p.stderr.on('data', (c: Buffer) => {
        if (err.length < 500) err += c.toString();
      });
      p.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      p.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`exit ${code ?? signal}${err.trim() ? `: ${err.trim().slice(0, 200)}` : ''}`));
      });
      // A process that exited before reading (missing voice) closes the pipe: its exit says why.
      p.stdin.on('error', () => undefined);
      p.stdin.end(text);
    });
    const samples = decodeWav(await readFile(file));
    if (!samples.length) throw new Error('no audio');
    return samples;
  } finally {
    await unlink(file).catch(() => undefined);
  }
}
