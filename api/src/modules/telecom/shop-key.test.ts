import { createShopKeys } from './shop-key';

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
});
