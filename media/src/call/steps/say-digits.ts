import { concat, silence } from '../../audio/tones';
import { sayMessage, type SpeakingCall } from './say-message';

/**
 * The voice-OTP step (issue 35, ADR 0052): the code said twice, digit by digit, slowly enough to
 * write down, then the call ends. Over a small interface of the call (STYLE: a step kind per file),
 * so the OTP call the worker places and any later caller of the step share it.
 */

export type { SpeakingCall } from './say-message';

/** One piece of what is said: a clip by name, then a pause. */
export interface Spoken {
  clip: string;
  pauseMs: number;
}

/** Between digits: long enough to write one down. */
export const DIGIT_PAUSE_MS = 700;
const PHRASE_PAUSE_MS = 400;
const REPEAT_PAUSE_MS = 1000;

/** What is said for `code`, in order: the intro, each digit, again, each digit, thanks. */
export function otpUtterance(code: string): Spoken[] {
  if (!/^\d{1,16}$/.test(code)) throw new Error('an OTP code is digits');
  const digits = [...code].map((d, i): Spoken => ({ clip: `digit-${d}`, pauseMs: i === code.length - 1 ? REPEAT_PAUSE_MS : DIGIT_PAUSE_MS }));
  return [{ clip: 'intro', pauseMs: PHRASE_PAUSE_MS }, ...digits, { clip: 'again', pauseMs: PHRASE_PAUSE_MS }, ...digits, { clip: 'bye', pauseMs: 0 }];
}

/** The utterance as one stream of samples from the prepared clips. */
export function renderUtterance(prompts: Readonly<Record<string, Int16Array>>, spoken: Spoken[]): Int16Array {
  return concat(spoken.flatMap((s) => {
    const clip = prompts[s.clip];
    if (!clip) throw new Error(`no prompt "${s.clip}"`);
    return [clip, silence(s.pauseMs)];
  }));
}

/** Says the code twice on the call, then hangs up (unless the callee already did). */
export async function sayDigits(call: SpeakingCall, prompts: Readonly<Record<string, Int16Array>>, code: string): Promise<'completed' | 'hangup'> {
  return sayMessage(call, renderUtterance(prompts, otpUtterance(code)));
}
