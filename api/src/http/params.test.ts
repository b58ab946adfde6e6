import { idOf, parseId } from './params';

describe('idOf', () => {
  it('reads a positive int4 path id', () => {
    expect(idOf({ ma_dn: 'demo', id: '42' })).toBe(42);
    expect(idOf({ id: '7', detailId: '9' }, 'detailId')).toBe(9);
  });
  it('answers 0 (no row) for anything a database would choke on', () => {
    for (const raw of ['abc', '-1', '1.5', '9999999999', '', undefined]) expect(parseId(raw)).toBe(0);
    expect(idOf(undefined)).toBe(0);
  });
});
