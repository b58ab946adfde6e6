/**
 * Writes the dialer's abandon message (issue 34: no agent free for the contact who answered) into
 * media/assets as an 8 kHz mono WAV from espeak-ng's Vietnamese voice. Committed; run again after
 * changing the text:
 *   cd media && npx tsx scripts/dialer-prompts.ts
 */
import { DIALER_ABANDON_FILE, DIALER_ABANDON_TEXT } from '../src/audio/dialer-prompts';
import { speakToAssets } from './espeak';

speakToAssets([[DIALER_ABANDON_FILE, DIALER_ABANDON_TEXT]]);
