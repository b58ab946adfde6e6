import Fastify from 'fastify';
import { currentActor, type Actor } from '../db/actor';
import { registerRequestActor } from './request-actor';
import './types';

/**
 * The request's actor as the audit log reads it (ADR 0057): the proven user of this request, in its
 * hooks and handler after the body is read, never another request's, and nobody once it is answered.
 */
describe('registerRequestActor', () => {
  const later: Promise<Actor | null>[] = [];
  const app = Fastify();
  app.decorateRequest('auth', null);
  registerRequestActor(app);
  // Stands where requireAuth sets request.auth from a token (here: the user named by a header).
  app.addHook('preHandler', async (request) => {
    const user = Number(request.headers['x-user']);
    if (user) request.auth = { userId: user, tenantId: 7, maDn: 'demo', sessionId: 's' };
  });
  app.post('/change', async (request) => {
    await new Promise((r) => setTimeout(r, 5));
    // Work the request leaves running after its answer acts for nobody.
    later.push(new Promise((r) => setTimeout(() => r(currentActor()), 50)));
    return { actor: currentActor(), body: request.body };
  });
  afterAll(() => app.close());

  it('names the user, IP and user agent of the request, after its body is read; nobody without a user', async () => {
    const send = (user: string | undefined, ip: string) =>
      app.inject({ method: 'POST', url: '/change', remoteAddress: ip, headers: { 'user-agent': 'Trình duyệt', ...(user && { 'x-user': user }) }, payload: { a: 1 } });
    const [a, b, none] = await Promise.all([send('11', '203.0.113.1'), send('12', '203.0.113.2'), send(undefined, '203.0.113.3')]);
    expect(a.json().actor).toEqual({ user_id: 11, tenant_id: 7, ip: '203.0.113.1', user_agent: 'Trình duyệt', request_id: expect.any(String) });
    expect(b.json().actor).toMatchObject({ user_id: 12, ip: '203.0.113.2' });
    expect(none.json()).toEqual({ actor: null, body: { a: 1 } });
    expect(await Promise.all(later)).toEqual([null, null, null]);
    expect(currentActor()).toBeNull();
  });
});
