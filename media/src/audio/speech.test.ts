import { existsSync } from 'node:fs';
import { prepareSpeech, REPEAT_TEXT } from './speech';
import { DEFAULT_PROMPT } from './tones';

// The real espeak-ng: this is what a survey call says. Not skipped when it is missing (the media
// worker's image installs it; a machine without it must be told, not pass quietly).
const ESPEAK_PATH = '/usr/bin/espeak-ng';

describe('prepareSpeech (espeak-ng, Vietnamese)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('finds espeak-ng installed', () => {
    if (!existsSync(ESPEAK_PATH)) throw new Error(`${ESPEAK_PATH} is missing: install espeak-ng (apt-get install espeak-ng), the survey's prompts are spoken with it`);
  });

  it('turns a Vietnamese sentence into more than half a second of 8 kHz audio that is not silent', async () => {
    const logs: string[] = [];
    const samples = await prepareSpeech('Quý khách có hài lòng với dịch vụ của chúng tôi không?', (m) => logs.push(m));
    expect(logs).toEqual([]);
    expect(samples).not.toBe(DEFAULT_PROMPT);
    expect(samples.length / 8000).toBeGreaterThan(0.5);
    // Speech, not silence: a real share of the samples is loud.
    const loud = samples.filter((v) => Math.abs(v) > 1000).length;
    expect(loud / samples.length).toBeGreaterThan(0.05);
  });

  it('speaks the same text once: the second ask gets the same promise, and espeak-ng runs once', async () => {
    // The module object speech.ts calls through (an `import * as` here would be a copy of it).
    const spawn = jest.spyOn(require('node:child_process') as typeof import('node:child_process'), 'spawn');
    const text = `Xin cảm ơn quý khách đã trả lời khảo sát ${Date.now()}.`;
    const first = prepareSpeech(text);
    const second = prepareSpeech(text);
    expect(second).toBe(first);
    const [a, b] = await Promise.all([first, second]);
    expect(b).toBe(a);
    expect(await prepareSpeech(text)).toBe(a);
    expect(spawn.mock.calls.filter(([cmd]) => cmd === 'espeak-ng')).toHaveLength(1);
    expect(a).not.toBe(DEFAULT_PROMPT);
  });

  it('without espeak-ng: the tone prompt (never silence), logged once', async () => {
    const cp = require('node:child_process') as typeof import('node:child_process');
    const real = cp.spawn;
    jest.spyOn(cp, 'spawn').mockImplementation(((_: string, args: string[], o: object) => real('/nonexistent/espeak-ng', args, o)) as typeof cp.spawn);
    const logs: string[] = [];
    const [a, b] = await Promise.all([prepareSpeech('Câu hỏi thứ nhất.', (m) => logs.push(m)), prepareSpeech('Câu hỏi thứ hai.', (m) => logs.push(m))]);
    expect(a).toBe(DEFAULT_PROMPT);
    expect(b).toBe(DEFAULT_PROMPT);
    expect(logs).toEqual([expect.stringContaining('espeak-ng could not speak a prompt')]);
  });

  it('prepares the repeat phrase like any text', async () => {
    const samples = await prepareSpeech(REPEAT_TEXT);
    expect(samples).not.toBe(DEFAULT_PROMPT);
    expect(samples.length / 8000).toBeGreaterThan(1);
  });
});
