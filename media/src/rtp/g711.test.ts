import { alawToLinear, decodeUlaw, encodeUlaw, linearToAlaw, linearToUlaw, ulawRms, ulawToLinear } from './g711';

describe('G.711 µ-law', () => {
  it('matches the reference table at known points', () => {
    expect(linearToUlaw(0)).toBe(0xff);
    expect(linearToUlaw(-1)).toBe(0x7f);
    expect(linearToUlaw(32767)).toBe(0x80);
    expect(linearToUlaw(-32768)).toBe(0x00);
    expect(ulawToLinear(0xff)).toBe(0);
    expect(ulawToLinear(0x80)).toBe(32124);
    expect(ulawToLinear(0x00)).toBe(-32124);
  });

  it('round-trips within the quantisation step of each segment', () => {
    for (const x of [-30000, -5000, -1000, -100, 0, 50, 700, 4000, 12000, 31000]) {
      const y = ulawToLinear(linearToUlaw(x));
      expect(Math.abs(y - x)).toBeLessThanOrEqual(Math.max(8, Math.abs(x) / 16));
    }
  });

  it('measures a sine louder than silence', () => {
    const sine = Int16Array.from({ length: 800 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));
    expect(ulawRms(encodeUlaw(sine))).toBeGreaterThan(5000);
    expect(ulawRms(encodeUlaw(new Int16Array(800)))).toBe(0);
    expect(decodeUlaw(encodeUlaw(sine)).length).toBe(800);
  });
});

describe('G.711 A-law', () => {
  it('matches the reference table at known points', () => {
    expect(linearToAlaw(0)).toBe(0xd5);
    expect(linearToAlaw(-1)).toBe(0x55);
    expect(linearToAlaw(32767)).toBe(0xaa);
    expect(linearToAlaw(-32768)).toBe(0x2a);
    expect(alawToLinear(0xd5)).toBe(8);
    expect(alawToLinear(0xaa)).toBe(32256);
  });

  it('round-trips within the quantisation step of each segment', () => {
    for (const x of [-30000, -5000, -1000, -100, 0, 50, 700, 4000, 12000, 31000]) {
      expect(Math.abs(alawToLinear(linearToAlaw(x)) - x)).toBeLessThanOrEqual(Math.max(16, Math.abs(x) / 16));
    }
  });
});
