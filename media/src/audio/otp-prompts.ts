import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROMPT } from './tones';
import { decodeWav } from './wav';

/**
 * What a voice-OTP call says (issue 35, ADR 0052), prepared ahead with espeak-ng's Vietnamese voice
 * (media/scripts/otp-prompts.ts writes media/assets/otp-*-vi.wav, committed like the mailbox prompts):
 * nothing is synthesised during a call. Each digit is its own clip, so any code is said from ten files.
 */
export const OTP_DIGIT_WORDS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'] as const;

export const OTP_PHRASES = {
  intro: 'Mã xác thực của bạn là',
  again: 'Xin nhắc lại, mã xác thực của bạn là',
  bye: 'Xin cảm ơn.',
} as const;
export type OtpPhrase = keyof typeof OTP_PHRASES;

/** Every clip's file name stem: the phrases by name, the digits as digit-0 … digit-9. */
export const otpClipNames = (): string[] => [...Object.keys(OTP_PHRASES), ...OTP_DIGIT_WORDS.map((_, d) => `digit-${d}`)];
export const otpClipText = (name: string): string =>
  name.startsWith('digit-') ? OTP_DIGIT_WORDS[Number(name.slice(6))] : OTP_PHRASES[name as OtpPhrase];

/** The clips, read once; a missing file is said with the tone prompt (never silence), as the mailbox's are. */
export const OTP_PROMPTS: Readonly<Record<string, Int16Array>> = Object.fromEntries(
  otpClipNames().map((name) => {
    try {
      return [name, decodeWav(readFileSync(join(__dirname, `../../assets/otp-${name}-vi.wav`)))];
    } catch {
      return [name, DEFAULT_PROMPT];
    }
  }),
);
