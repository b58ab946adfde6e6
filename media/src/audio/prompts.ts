import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PROMPT } from './tones';
import { decodeWav } from './wav';

/**
 * The default voicemail greeting, in Vietnamese: "Vui lòng để lại lời nhắn sau tiếng bíp. Nhấn phím
 * thăng khi nói xong." (espeak-ng's Vietnamese voice, resampled to 8 kHz by decodeWav and committed as
 * media/assets/voicemail-prompt-vi.wav). A worker without the file says it with the tone prompt.
 */
export const VOICEMAIL_PROMPT: Int16Array = (() => {
  try {
    return decodeWav(readFileSync(join(__dirname, '../../assets/voicemail-prompt-vi.wav')));
  } catch {
    return DEFAULT_PROMPT;
  }
})();
