import { silentLeg } from './media-call';

describe('a bridged party that went away without a BYE (silentLeg)', () => {
  const leg = (lastPacketAt: number, held = false) => ({ lastPacketAt, held });
  it('is one that has sent nothing for the timeout, unless it put the call on hold', () => {
    expect(silentLeg([leg(0), leg(59_000)], 60_000, 60_000)).toBe(false);
    expect(silentLeg([leg(0), leg(59_000)], 60_001, 60_000)).toBe(true);
    expect(silentLeg([leg(0, true), leg(59_000)], 600_000, 60_000)).toBe(true);
    expect(silentLeg([leg(0, true), leg(590_000)], 600_000, 60_000)).toBe(false);
    expect(silentLeg([null, leg(590_000)], 600_000, 60_000)).toBe(false);
  });
});
