import { createSocket } from 'node:dgram';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ear } from './rtp-ear';
import { digestHeader } from './sip-client';
import { toneWav } from './wav';

const ROOT = join(__dirname, '../../..');

/** Product source files (not tests) under `dir`. */
function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : productFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('test kit', () => {
  it('no product code imports it: test tooling stays out of what ships', () => {
    const roots = readdirSync(ROOT).filter((d) => /^(api|media|host|mf-.*)$/.test(d)).map((d) => join(ROOT, d, 'src'));
    roots.push(...readdirSync(join(ROOT, 'shared')).filter((d) => d !== 'testkit').map((d) => join(ROOT, 'shared', d, 'src')));
    const offenders = roots.flatMap((r) => { try { return productFiles(r); } catch { return []; } }).filter((f) => readFileSync(f, 'utf8').includes('@tongdai/testkit'));
    expect(roots.length).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });

  it('digestHeader gives the response of RFC 2617 §3.5 (qop=auth)', () => {
    const challenge = 'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"';
    const h = digestHeader({ method: 'GET', uri: '/dir/index.html', user: 'Mufasa', password: 'Circle Of Life', challenge, cnonce: '0a4f113b' });
    expect(h).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(h).toContain('qop=auth, nc=00000001, cnonce="0a4f113b"');
    expect(h).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
  });

  it('toneWav: a 44-byte header, then the samples of the tone', () => {
    const w = toneWav(1, 1000);
    expect(w.length).toBe(44 + 16_000);
    expect(w.toString('latin1', 0, 4)).toBe('RIFF');
    expect(w.readUInt32LE(24)).toBe(8000);
    // 1 kHz at 8 kHz: sample 2 is a quarter period, the peak.
    expect(w.readInt16LE(44 + 2 * 2)).toBe(12000);
  });

  it('the Ear decodes PCMU: silence is quiet, full scale is loud', async () => {
    const ear = await Ear.open();
    const tx = createSocket('udp4');
    const rtp = (byte: number) => Buffer.concat([Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]), Buffer.alloc(160, byte)]);
    try {
      for (const b of [0xff, 0x80]) await new Promise<void>((r) => tx.send(rtp(b), ear.port, '127.0.0.1', () => r()));
      const deadline = Date.now() + 2000;
      while (ear.packets.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(ear.packets.map((p) => p.rms)).toEqual([0, 32124]);
    } finally {
      tx.close();
      ear.close();
    }
  });

  it('an Ear speaks back to where it heard from: another Ear hears the tone at its loudness', async () => {
    const [caller, far] = await Promise.all([Ear.open(), Ear.open()]);
    try {
      // Nothing heard yet: nowhere to speak to.
      expect(await caller.speak(440, 40)).toBe(0);
      const hello = Buffer.concat([Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2]), Buffer.alloc(160, 0xff)]);
      await new Promise<void>((r) => far.socket.send(hello, caller.port, '127.0.0.1', () => r()));
      const deadline = Date.now() + 2000;
      while (caller.packets.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await caller.speak(440, 200, 8000)).toBe(10);
      while (far.packets.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // A sine of amplitude 8000 has an RMS of 8000/√2 ≈ 5657 (µ-law keeps it within a few %).
      const heard = far.loudness(0, 10_000);
      expect(heard.packets).toBe(10);
      expect(Math.abs(heard.rms - 5657)).toBeLessThan(200);
    } finally {
      caller.close();
      far.close();
    }
  });
});
