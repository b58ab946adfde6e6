import { AccessCache } from './access-cache';

describe('AccessCache: values per tenant access version', () => {
  const loader = (value: unknown) => {
    const load = jest.fn(async () => value);
    return load;
  };

  it('reads a key once per version, again for a newer version, and keeps tenants apart', async () => {
    const cache = new AccessCache();
    const v1 = loader('roles@1');
    expect(await cache.get(1, '5', 'roles:7', v1)).toBe('roles@1');
    expect(await cache.get(1, '5', 'roles:7', v1)).toBe('roles@1');
    expect(v1).toHaveBeenCalledTimes(1);
    const other = loader('tenant 2');
    expect(await cache.get(2, '5', 'roles:7', other)).toBe('tenant 2');
    const v2 = loader('roles@2');
    expect(await cache.get(1, '6', 'roles:7', v2)).toBe('roles@2');
    expect(await cache.get(1, '6', 'roles:7', v2)).toBe('roles@2');
    expect(v2).toHaveBeenCalledTimes(1);
    // The tenant's older values went with its old version.
    const payment = loader('payment@2');
    expect(await cache.get(1, '6', 'payment', payment)).toBe('payment@2');
    expect(payment).toHaveBeenCalledTimes(1);
  });

  it('a request that read an older version than the one held reads for itself and changes nothing', async () => {
    const cache = new AccessCache();
    await cache.get(1, '9', 'k', loader('new'));
    const old = loader('old');
    expect(await cache.get(1, '8', 'k', old)).toBe('old');
    expect(await cache.get(1, '8', 'k', old)).toBe('old');
    expect(old).toHaveBeenCalledTimes(2);
    const again = loader('never');
    expect(await cache.get(1, '9', 'k', again)).toBe('new');
    expect(again).not.toHaveBeenCalled();
  });

  it('versions compare as numbers, past 2^53 too', async () => {
    const cache = new AccessCache();
    await cache.get(1, '10', 'k', loader('ten'));
    expect(await cache.get(1, '9', 'k', loader('nine'))).toBe('nine');
    expect(await cache.get(1, '10', 'k', loader('x'))).toBe('ten');
    await cache.get(1, '9007199254740993', 'k', loader('big'));
    expect(await cache.get(1, '9007199254740992', 'k', loader('smaller'))).toBe('smaller');
    expect(await cache.get(1, '9007199254740993', 'k', loader('x'))).toBe('big');
  });

  it('requests of one version at once share one read; a failed read is not kept', async () => {
    const cache = new AccessCache();
    let release!: (v: string) => void;
    const slow = jest.fn(() => new Promise<string>((r) => (release = r)));
    const a = cache.get(1, '1', 'k', slow);
    const b = cache.get(1, '1', 'k', slow);
    release('once');
    expect(await Promise.all([a, b])).toEqual(['once', 'once']);
    expect(slow).toHaveBeenCalledTimes(1);
    const failing = jest.fn(async () => { throw new Error('database away'); });
    await expect(cache.get(1, '1', 'other', failing)).rejects.toThrow('database away');
    expect(await cache.get(1, '1', 'other', loader('read again'))).toBe('read again');
  });

  it('is dropped whole when it holds too many values', async () => {
    const cache = new AccessCache(3);
    for (const key of ['a', 'b', 'c']) await cache.get(1, '1', key, loader(key));
    const a = loader('a again');
    expect(await cache.get(1, '1', 'a', a)).toBe('a');
    await cache.get(2, '1', 'd', loader('d'));
    expect(await cache.get(1, '1', 'a', a)).toBe('a again');
    expect(a).toHaveBeenCalledTimes(1);
  });
});
