import { startTestApp, type TestApp } from '../../test/helpers';
import { API_CSP } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const SECURITY = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' };

describe('security headers on every API answer (issue 12 item 8)', () => {
  test.each([
    ['an answer', '/health', 200],
    ['a refusal', '/t/demo/me', 401],
    ['an unknown path', '/nothing-here', 404],
  ])('%s (%s) is never sniffed, framed nor run as a page', async (_what, url, status) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject({ ...SECURITY, 'content-security-policy': API_CSP });
  });

  test('the API documentation (Swagger UI runs scripts) keeps nosniff but no CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject(SECURITY);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});
