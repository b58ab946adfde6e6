import { VOICEMAIL_PROMPT } from './prompts';
import { DEFAULT_PROMPT } from './tones';

describe('the default voicemail greeting', () => {
  it('is the Vietnamese recording (about 4 s at 8 kHz, with speech in it), not the tone prompt', () => {
    expect(VOICEMAIL_PROMPT).not.toBe(DEFAULT_PROMPT);
    expect(VOICEMAIL_PROMPT.length / 8000).toBeGreaterThan(3);
    expect(VOICEMAIL_PROMPT.length / 8000).toBeLessThan(6);
    const rms = Math.sqrt(VOICEMAIL_PROMPT.reduce((a, x) => a + x * x, 0) / VOICEMAIL_PROMPT.length);
    expect(rms).toBeGreaterThan(500);
  });
});
