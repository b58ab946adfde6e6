/**
 * Writes the voice-OTP prompts (issue 35: the phrases and the digits 0–9) into media/assets as 8 kHz
 * mono WAVs from espeak-ng's Vietnamese voice, a little slower than the menus so digits can be written
 * down. Committed; run again after changing a phrase:
 *   cd media && npx tsx scripts/otp-prompts.ts
 */
import { otpClipNames, otpClipText } from '../src/audio/otp-prompts';
import { speakToAssets } from './espeak';

speakToAssets(otpClipNames().map((name) => [`otp-${name}-vi.wav`, otpClipText(name)]), 130);
