import { OTP_PROMPTS } from '../../audio/otp-prompts';
import { DIGIT_PAUSE_MS, otpUtterance, renderUtterance, sayDigits, type SpeakingCall } from './say-digits';

/**
 * Reads back which clips a stream is made of, from the prepared prompts: at each offset the clip
 * whose samples are there, silence skipped. (The call test over sipp will need a tolerant match after
 * G.711; the step's own output is exact.)
 */
function heardClips(stream: Int16Array): string[] {
  const names = Object.keys(OTP_PROMPTS).sort((a, b) => OTP_PROMPTS[b].length - OTP_PROMPTS[a].length);
  const out: string[] = [];
  let i = 0;
  while (i < stream.length) {
    if (stream[i] === 0) {
      i++;
      continue;
    }
    // A clip may start with silent samples of its own: try each clip's start a little before.
    const hit = names.flatMap((n) => {
      const clip = OTP_PROMPTS[n];
      const lead = clip.findIndex((s) => s !== 0);
      const at = i - lead;
      return at >= 0 && at + clip.length <= stream.length && clip.every((s, k) => stream[at + k] === s) ? [{ n, end: at + clip.length }] : [];
    })[0];
    if (!hit) throw new Error(`no prompt at sample ${i}`);
    out.push(hit.n);
    i = hit.end;
  }
  return out;
}

describe('say-digits', () => {
  it('says the intro, the code digit by digit, again, the code again, then thanks', () => {
    expect(otpUtterance('4091').map((s) => s.clip)).toEqual([
      'intro', 'digit-4', 'digit-0', 'digit-9', 'digit-1', 'again', 'digit-4', 'digit-0', 'digit-9', 'digit-1', 'bye',
    ]);
    // Slowly enough to write down: a pause after every digit.
    expect(otpUtterance('4091').filter((s) => s.clip.startsWith('digit-')).every((s) => s.pauseMs >= DIGIT_PAUSE_MS)).toBe(true);
    expect(() => otpUtterance('12a4')).toThrow();
  });

  it('every prompt was prepared ahead (a Vietnamese clip per digit and phrase, none the fallback tone)', () => {
    const clips = Object.values(OTP_PROMPTS);
    expect(clips).toHaveLength(13);
    expect(new Set(clips).size).toBe(13);
    for (const c of clips) expect(c.length / 8000).toBeGreaterThan(0.5);
  });

  it('what the call plays is the code twice in order, read back from the prompts; then it hangs up', async () => {
    const played: Int16Array[] = [];
    let hungUp = false;
    const call: SpeakingCall = { play: async (s) => { played.push(s); return 'done'; }, hangUp: () => { hungUp = true; } };
    expect(await sayDigits(call, OTP_PROMPTS, '482913')).toBe('completed');
    expect(hungUp).toBe(true);
    const digits = heardClips(played[0]).filter((c) => c.startsWith('digit-')).map((c) => c.slice(6)).join('');
    expect(digits).toBe('482913482913');
    expect(played[0].length).toBe(renderUtterance(OTP_PROMPTS, otpUtterance('482913')).length);
  });

  it('a callee who hangs up mid-code is not hung up on again', async () => {
    let hungUp = false;
    const call: SpeakingCall = { play: async () => 'hangup', hangUp: () => { hungUp = true; } };
    expect(await sayDigits(call, OTP_PROMPTS, '1234')).toBe('hangup');
    expect(hungUp).toBe(false);
  });
});
