import { billedSeconds, DEFAULT_BILLING } from './carrier-report';

describe('carrier billing rules', () => {
  it('bills the first block for any answered call, then whole blocks; nothing for a call not answered', () => {
    const mobile = DEFAULT_BILLING.viettel;
    expect([0, 1, 6, 7, 61].map((s) => billedSeconds(s, mobile))).toEqual([0, 6, 6, 7, 61]);
    const other = DEFAULT_BILLING.other;
    expect([0, 1, 60, 61, 121].map((s) => billedSeconds(s, other))).toEqual([0, 60, 60, 120, 180]);
    expect([1, 30, 31].map((s) => billedSeconds(s, { first: 30, block: 6 }))).toEqual([30, 30, 36]);
  });
});
