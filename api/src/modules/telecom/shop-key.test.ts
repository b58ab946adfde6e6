import { createShopKeys, SHOP_KEY_PERIOD_MS } from './shop-key';

const derive = (secret: string) => () => Buffer.alloc(32, secret);

describe('telecom shop keys', () => {
  const keys = createShopKeys(derive('a'));
  it('one stable key per tenant, that names its tenant back', () => {
    const demo = keys.issue('demo');
    expect(demo).toMatch(/^demo\.[A-Za-z0-9_-]{43}$/);
    expect(keys.issue('demo')).toBe(demo);
    expect(keys.issue('abc')).not.toBe(demo);
    expect(keys.tenantOf(demo)).toBe('demo');
  });
  it('refuses a key of another tenant with the tenant swapped, a spoiled mac, another deployment and junk', () => {
    const mac = keys.issue('demo').split('.')[1];
    expect(keys.tenantOf(`abc.${mac}`)).toBeNull();
    expect(keys.tenantOf(`demo.${mac.slice(0, -1)}x`)).toBeNull();
    expect(keys.tenantOf(`demo.${mac.slice(0, -2)}`)).toBeNull();
    expect(createShopKeys(derive('b')).tenantOf(keys.issue('demo'))).toBeNull();
    for (const junk of ['', 'demo', '.', 'DEMO.x', 'a b.c']) expect(keys.tenantOf(junk)).toBeNull();
  });
  it('expires: a key works in its rotation period and the next, then never again; new keys replace it', () => {
    const period = SHOP_KEY_PERIOD_MS;
    let now = 5 * period + 1000;
    const clocked = createShopKeys(derive('a'), () => now);
    const key = clocked.issue('demo');
    now = 6 * period - 1;
    expect(clocked.issue('demo')).toBe(key);
    now = 6 * period;
    const next = clocked.issue('demo');
    expect(next).not.toBe(key);
    expect([clocked.tenantOf(key), clocked.tenantOf(next)]).toEqual(['demo', 'demo']);
    now = 7 * period;
    expect([clocked.tenantOf(key), clocked.tenantOf(next)]).toEqual([null, 'demo']);
    // Not from the future either: a key of the next period is refused now.
    now = 5 * period;
    expect(clocked.tenantOf(next)).toBeNull();
  });
});
