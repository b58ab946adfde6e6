import { WrittenMark } from './written-mark';

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('WrittenMark', () => {
  it('lets a waiter go only when every change numbered before it is done, in whatever order', async () => {
    const mark = new WrittenMark();
    expect(await settled(mark.written())).toBe(true);
    const a = mark.next();
    const b = mark.next();
    const both = mark.written();
    const c = mark.next();
    const all = mark.written();
    // b and c written, a failed and buffered again: nobody waiting on a is let go.
    mark.done([b, c]);
    expect(await settled(both)).toBe(false);
    expect(await settled(all)).toBe(false);
    mark.done([a]);
    expect(await settled(both)).toBe(true);
    expect(await settled(all)).toBe(true);
  });

  it('does not hold a waiter for changes made after it asked', async () => {
    const mark = new WrittenMark();
    const a = mark.next();
    const early = mark.written();
    const later = mark.next();
    mark.done([a]);
    expect(await settled(early)).toBe(true);
    expect(await settled(mark.written())).toBe(false);
    mark.done([later]);
    expect(await settled(mark.written())).toBe(true);
  });
});
