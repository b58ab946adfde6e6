import { countAxis, countTick } from './axis';

describe('countTick', () => {
  it('labels whole counts, in Vietnamese digit grouping', () => {
    expect([0, 1, 2, 10].map(countTick)).toEqual(['0', '1', '2', '10']);
    expect(countTick(12000)).toBe('12.000');
  });
  it('leaves fractional steps unlabelled (0.25, 0.75, 2.25)', () => {
    expect([0.25, 0.5, 0.75, 2.25, 0.30000000000000004].map(countTick)).toEqual(['', '', '', '', '']);
  });
});

describe('countAxis', () => {
  it('never asks for more steps than the largest count', () => {
    expect(countAxis([]).yAxisTickCount).toBe(1);
    expect(countAxis([0, 0]).yAxisTickCount).toBe(1);
    expect(countAxis([1]).yAxisTickCount).toBe(1);
    expect(countAxis([2, 1]).yAxisTickCount).toBe(2);
    expect(countAxis([3]).yAxisTickCount).toBe(3);
    expect(countAxis([4, 120]).yAxisTickCount).toBe(4);
    expect(countAxis([1]).yAxisTickFormat).toBe(countTick);
  });
});
