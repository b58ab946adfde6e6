import { countTick } from './axis';

describe('countTick', () => {
  it('labels whole counts, in Vietnamese digit grouping', () => {
    expect([0, 1, 2, 10].map(countTick)).toEqual(['0', '1', '2', '10']);
    expect(countTick(12000)).toBe('12.000');
  });
  it('leaves fractional steps unlabelled (0.25, 0.75, 2.25)', () => {
    expect([0.25, 0.5, 0.75, 2.25, 0.30000000000000004].map(countTick)).toEqual(['', '', '', '', '']);
  });
});
