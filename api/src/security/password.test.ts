import { hashPassword, verifyPassword } from './password';

describe('password hashing', () => {
  it('uses argon2id with 19 MiB, 2 passes, 1 lane', async () => {
    const h = await hashPassword('Admin@123');
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(h, 'Admin@123')).toBe(true);
    expect(await verifyPassword(h, 'admin@123')).toBe(false);
    expect(await verifyPassword('garbage', 'x')).toBe(false);
  });
});
