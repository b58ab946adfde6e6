import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { FEATURES, PERM } from '@tongdai/contracts';
import { operationsOf, undeclared } from '../../test/authorization-matrix';
import { declareAccess, exposeAccess, guarded, publicRoute, requireAuth } from './guards';

async function documentOf(routes: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  exposeAccess(app);
  await app.register(swagger, { openapi: { info: { title: 't', version: '0' } } });
  routes(app);
  await app.ready();
  return operationsOf(app.swagger());
}

describe('exposeAccess: the guards of a route declare its access in the OpenAPI document', () => {
  test('permission, session only, public, another scheme — and a route with none is listed as undeclared', async () => {
    const shared = { tags: ['x'] };
    const ops = await documentOf((app) => {
      app.get('/perm', { preHandler: guarded(PERM.role.view, FEATURES.pbx), schema: shared }, async () => ({}));
      app.get('/session', { preHandler: guarded(), schema: shared }, async () => ({}));
      app.post('/login', { preHandler: [publicRoute], schema: shared }, async () => ({}));
      app.get('/key', { preValidation: declareAccess({ auth: 'shop-key' }, async () => undefined) }, async () => ({}));
      app.get('/forgotten', { schema: shared }, async () => ({}));
    });
    const by = Object.fromEntries(ops.map((o) => [`${o.method} ${o.path}`, o]));
    expect(by['GET /perm']).toMatchObject({ auth: 'bearer', permission: PERM.role.view, feature: FEATURES.pbx });
    expect(by['GET /session']).toMatchObject({ auth: 'bearer', permission: undefined });
    expect(by['POST /login']).toMatchObject({ auth: 'public' });
    expect(by['GET /key']).toMatchObject({ auth: 'shop-key' });
    // The schema object the routes share is copied, not written into.
    expect(Object.keys(shared)).toEqual(['tags']);
    expect(undeclared(ops)).toEqual(['GET /forgotten']);
  });

  test('a route declaring two different permissions is refused at start-up', async () => {
    await expect(
      documentOf((app) => app.get('/two', { preHandler: [...guarded(PERM.role.view), ...guarded(PERM.role.edit)] }, async () => ({}))),
    ).rejects.toThrow('GET /two: two permission declarations');
  });

  test('requireAuth is itself the session declaration (the /pbx chain uses it directly)', async () => {
    const ops = await documentOf((app) => app.get('/bare', { preHandler: requireAuth }, async () => ({})));
    expect(ops[0]).toMatchObject({ auth: 'bearer' });
  });
});
