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

/** What the voicemail menu says (*97 / *98, issue 16); media/scripts/mailbox-prompts.ts makes the files. */
export const MAILBOX_PHRASES = {
  mailbox: 'Vui lòng nhập số hộp thư, rồi nhấn phím thăng.',
  pin: 'Vui lòng nhập mật khẩu hộp thư, rồi nhấn phím thăng.',
  wrong: 'Số hộp thư hoặc mật khẩu không đúng.',
  new: 'Bạn có tin nhắn mới.',
  none: 'Bạn không có tin nhắn mới.',
  menu: 'Nhấn phím năm để nghe lại, phím bảy để xoá, phím thăng để nghe tin tiếp theo.',
  deleted: 'Đã xoá tin nhắn.',
  end: 'Hết tin nhắn. Xin chào.',
} as const;

export type MailboxPrompt = keyof typeof MAILBOX_PHRASES;

/** The menu's prompts, read once; a missing file is said with the tone prompt (never silence). */
export const MAILBOX_PROMPTS: Readonly<Record<MailboxPrompt, Int16Array>> = Object.fromEntries(
  Object.keys(MAILBOX_PHRASES).map((name) => {
    try {
      return [name, decodeWav(readFileSync(join(__dirname, `../../assets/mailbox-${name}-vi.wav`)))];
    } catch {
      return [name, DEFAULT_PROMPT];
    }
  }),
) as Record<MailboxPrompt, Int16Array>;
