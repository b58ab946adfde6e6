import { AUDIO_MAX_BYTES, AUDIO_MIME, PBX_MSG } from '@tongdai/contracts';

/** What the file input offers: WAV and MP3 by extension and by type. */
export const AUDIO_ACCEPT = ['.wav', '.mp3', ...Object.values(AUDIO_MIME), 'audio/x-wav', 'audio/wave', 'audio/mp3'].join(',');

const EXTENSIONS = Object.keys(AUDIO_MIME);
// Browsers name WAV several ways; an empty type (unknown to the OS) falls back to the extension.
const TYPES = new Set<string>([...Object.values(AUDIO_MIME), 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/mp3', 'audio/x-mpeg']);

/**
 * Checks before upload, with the API's own messages: a file is chosen, it is WAV or MP3, and it is
 * at most AUDIO_MAX_BYTES. The API checks the bytes again; this saves the user a wasted upload.
 */
export function checkAudioFile(file: Pick<File, 'name' | 'type' | 'size'> | null | undefined): string | null {
  if (!file) return PBX_MSG.audioRequired;
  const ext = /\.([^.]+)$/.exec(file.name.toLowerCase())?.[1] ?? '';
  const typeOk = file.type === '' || TYPES.has(file.type.toLowerCase());
  if (!EXTENSIONS.includes(ext) || !typeOk) return PBX_MSG.audioType;
  if (file.size > AUDIO_MAX_BYTES) return PBX_MSG.audioTooLarge(AUDIO_MAX_BYTES / 1024 / 1024);
  return null;
}
