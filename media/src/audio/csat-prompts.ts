import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROMPT } from './tones';
import { decodeWav } from './wav';

/**
 * What post-call CSAT says to a queue's caller once the agent hung up (issue 34), prepared ahead
 * with espeak-ng's Vietnamese voice (media/scripts/csat-prompts.ts writes media/assets/csat-*-vi.wav,
 * committed like the mailbox and OTP prompts): nothing is synthesised during a call.
 */
export const CSAT_PHRASES = {
  ask: 'Quý khách vui lòng đánh giá cuộc gọi vừa rồi. Bấm phím từ 1 đến 5, phím 5 là rất hài lòng.',
  thanks: 'Xin cảm ơn quý khách đã đánh giá. Xin chào.',
} as const;
export type CsatPhrase = keyof typeof CSAT_PHRASES;

/** How long the caller has to press a key after the question (then it is said once more). */
export const CSAT_WAIT_MS = 8000;

/** The clips, read once; a missing file is said with the tone prompt (never silence), as the mailbox's are. */
export const CSAT_PROMPTS: Readonly<Record<CsatPhrase, Int16Array>> = Object.fromEntries(
  Object.keys(CSAT_PHRASES).map((name) => {
    try {
      return [name, decodeWav(readFileSync(join(__dirname, `../../assets/csat-${name}-vi.wav`)))];
    } catch {
      return [name, DEFAULT_PROMPT];
    }
  }),
) as Record<CsatPhrase, Int16Array>;
