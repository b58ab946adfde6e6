import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROMPT } from './tones';
import { decodeWav } from './wav';

/**
 * What a dialer call says when no agent can take the contact who answered (issue 34, ADR 0055),
 * prepared ahead with espeak-ng's Vietnamese voice (media/scripts/dialer-prompts.ts writes
 * media/assets/dialer-abandon-vi.wav, committed like the OTP prompts): nothing is synthesised during a call.
 */
export const DIALER_ABANDON_TEXT = 'Xin lỗi quý khách, hiện chưa có nhân viên nào rảnh để tiếp máy. Chúng tôi sẽ gọi lại quý khách sau. Xin cảm ơn.';

export const DIALER_ABANDON_FILE = 'dialer-abandon-vi.wav';

/** The clip, read once; a missing file is said with the tone prompt (never silence). */
export const DIALER_ABANDON_PROMPT: Int16Array = (() => {
  try {
    return decodeWav(readFileSync(join(__dirname, '../../assets', DIALER_ABANDON_FILE)));
  } catch {
    return DEFAULT_PROMPT;
  }
})();
