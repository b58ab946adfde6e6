/**
 * Writes the voicemail menu's Vietnamese prompts (issue 16: *97 / *98) into media/assets as 8 kHz
 * mono WAVs, from espeak-ng's Vietnamese voice (the same voice as voicemail-prompt-vi.wav). The
 * files are committed: the worker never needs espeak-ng. Run again after changing a phrase:
 *   cd media && npx tsx scripts/mailbox-prompts.ts
 */
import { MAILBOX_PHRASES } from '../src/audio/prompts';
import { speakToAssets } from './espeak';

speakToAssets(Object.entries(MAILBOX_PHRASES).map(([name, text]) => [`mailbox-${name}-vi.wav`, text]));
