import { AppliedEvents, parseEventMark } from './applied-events';

describe('AppliedEvents: the plan waits for the events Kamailio numbered before it asked', () => {
  it('a start never heard of counts as applied; the first event heard sets where it begins', () => {
    const a = new AppliedEvents();
    expect(a.has(100, 7)).toBe(true);
    a.mark(100, 5);
    expect(a.has(100, 4)).toBe(true);
    expect(a.has(100, 5)).toBe(true);
    expect(a.has(100, 6)).toBe(false);
    expect(a.has(200, 6)).toBe(true);
  });

  it('is a low-water mark: an event applied out of order waits for the ones before it', () => {
    const a = new AppliedEvents();
    a.mark(1, 10);
    a.mark(1, 12);
    expect(a.has(1, 12)).toBe(false);
    a.mark(1, 11);
    expect(a.has(1, 12)).toBe(true);
  });

  it('wakes a waiting plan when the event it needs is applied', async () => {
    const a = new AppliedEvents();
    a.mark(1, 1);
    const waiting = a.waitFor(1, 3, 5_000);
    a.mark(1, 3);
    a.mark(1, 2);
    await expect(waiting).resolves.toBe(true);
  });

  it('gives up on an event that never comes, once: the next plan does not wait for it again', async () => {
    const a = new AppliedEvents();
    a.mark(1, 1);
    a.mark(1, 3);
    await expect(a.waitFor(1, 3, 10)).resolves.toBe(false);
    expect(a.has(1, 3)).toBe(true);
    a.mark(1, 4);
    expect(a.has(1, 4)).toBe(true);
  });

  it('reads a plan request\'s mark', () => {
    expect(parseEventMark('1764400000.42')).toEqual([1764400000, 42]);
    expect(parseEventMark('x.1')).toBeNull();
    expect(parseEventMark(undefined)).toBeNull();
  });
});
