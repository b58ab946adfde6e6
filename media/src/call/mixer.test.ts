import { encodeUlaw } from '../rtp/g711';
import { RtpSession, PT_PCMU } from '../rtp/session';
import { Mixer, SampleQueue } from './mixer';

/** 20 ms of a constant level, as a leg's peer would send it (PCMU). */
const frame = (level: number) => encodeUlaw(new Int16Array(160).fill(level));
/** Three packets from `rtp`'s peer (enough for the mixer's jitter buffer). */
const speak = (rtp: RtpSession, level: number) => {
  for (let i = 0; i < 3; i++) rtp.emit('audio', PT_PCMU, frame(level), i * 160, 1);
};
/** The level a listener hears in its next frame (µ-law rounds: within 3 %). */
const heard = (m: Mixer, listener: RtpSession) => m.frameFor(listener)[80];
const near = (value: number, expected: number) => expect(Math.abs(value - expected)).toBeLessThanOrEqual(Math.max(8, expected * 0.03));

describe('Mixer (a supervisor in a bridged call, ADR 0042)', () => {
  let a: RtpSession, b: RtpSession, spy: RtpSession;
  beforeEach(async () => {
    [a, b, spy] = await Promise.all([RtpSession.open('127.0.0.1'), RtpSession.open('127.0.0.1'), RtpSession.open('127.0.0.1')]);
    a.bridge(b);
  });
  afterEach(() => [a, b, spy].forEach((s) => s.close()));

  const round = (m: Mixer) => {
    speak(a, 1000);
    speak(b, 2000);
    speak(spy, 4000);
    return { a: heard(m, a), b: heard(m, b), spy: heard(m, spy) };
  };

  it('listen: the supervisor hears both parties; neither party hears the supervisor', () => {
    const m = new Mixer(a, b);
    m.add(spy, 'listen', 'b');
    const r = round(m);
    near(r.spy, 3000);
    near(r.a, 2000);
    near(r.b, 1000);
  });

  it('whisper: only the agent (the leg of the extension dialled) hears the supervisor', () => {
    const m = new Mixer(a, b);
    m.add(spy, 'whisper', 'b');
    const r = round(m);
    near(r.b, 1000 + 4000);
    near(r.a, 2000);
    near(r.spy, 3000);
  });

  it('barge: all three hear each other; switching back to listen drops what the parties had still to hear of the supervisor', () => {
    const m = new Mixer(a, b);
    m.add(spy, 'barge', 'a');
    const r = round(m);
    near(r.a, 2000 + 4000);
    near(r.b, 1000 + 4000);
    near(r.spy, 3000);
    speak(spy, 4000);
    m.setMode(spy, 'listen');
    // a and b had 2 frames of the supervisor still queued: gone at once.
    near(heard(m, a), 2000);
    near(heard(m, b), 1000);
  });

  it('a supervisor who leaves is no longer mixed in, and nothing is heard of a party that fell silent', () => {
    const m = new Mixer(a, b);
    m.add(spy, 'barge', 'a');
    round(m);
    m.remove(spy);
    expect(m.size).toBe(0);
    speak(spy, 4000);
    speak(b, 2000);
    // a still had two frames of b buffered, then b's new ones: never the supervisor.
    for (let i = 0; i < 5; i++) near(heard(m, a), 2000);
    expect(heard(m, a)).toBe(0);
  });
});

describe('SampleQueue', () => {
  it('waits for 40 ms before it plays, keeps at most 200 ms, and a frame it cannot fill is silence', () => {
    const q = new SampleQueue();
    const out = () => {
      const o = new Int32Array(160);
      q.mixInto(o);
      return o[0];
    };
    q.push(new Int16Array(160).fill(7));
    expect(out()).toBe(0);
    q.push(new Int16Array(160).fill(7));
    expect(out()).toBe(7);
    expect(q.size).toBe(160);
    for (let i = 0; i < 20; i++) q.push(new Int16Array(160).fill(i));
    expect(q.size).toBe(1600);
    // The oldest were dropped: the first frame heard is the 11th pushed (i = 10).
    expect(out()).toBe(10);
  });
});
