/**
 * Writes post-call CSAT's Vietnamese prompts (issue 34: the question and the thanks) into media/assets
 * as 8 kHz mono WAVs from espeak-ng's Vietnamese voice (the same voice as the mailbox prompts).
 * Committed; run again after changing a phrase:
 *   cd media && npx tsx scripts/csat-prompts.ts
 */
import { CSAT_PHRASES } from '../src/audio/csat-prompts';
import { speakToAssets } from './espeak';

speakToAssets(Object.entries(CSAT_PHRASES).map(([name, text]) => [`csat-${name}-vi.wav`, text]));
