import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, preHandlerAsyncHookHandler } from 'fastify';
import { hasPermission, isFeatureEnabled, REFRESHED_TOKEN_HEADER, type FeatureName } from '@tongdai/contracts';
import type { Queryable } from '../db/db';
import type { AuthContext } from '../security/session';
import { AppError } from './errors';
import './types';

/**
 * How a caller proves who they are: nothing (`public`), a user's session token (`bearer`), the
 * tenant's telecom shop key (`shop-key`), a voice-OTP API key (`api-key`, issue 35), or a session token offered as a WebSocket subprotocol.
 */
export type AuthScheme = 'public' | 'bearer' | 'shop-key' | 'api-key' | 'websocket-token';

/** What a route requires, as its guards declare it (see exposeAccess). */
export interface Access {
  auth?: AuthScheme;
  permission?: string;
  feature?: FeatureName;
}

const ACCESS = Symbol.for('tongdai.access');
type Declaring = { [ACCESS]?: Access };

/** Tags a guard hook with what it enforces, so the route that uses it declares that access. */
export function declareAccess<F extends (...args: never[]) => unknown>(access: Access, hook: F): F {
  (hook as F & Declaring)[ACCESS] = access;
  return hook;
}

/** The one guard of a route anyone may call (logins, sign-up, health, the public logo). */
export const publicRoute: preHandlerAsyncHookHandler = declareAccess({ auth: 'public' }, async function publicRoute() {});

const GUARD_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/**
 * Copies each route's declared access into its OpenAPI operation (`x-auth`, `x-permission`,
 * `x-feature`), read from the guards in its hooks: the authorization matrix test reads the
 * document, and a route with no declaration fails it. Register before any route.
 */
export function exposeAccess(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const hooks = GUARD_HOOKS.flatMap((name) => [route[name] ?? []].flat()) as Declaring[];
    const access: Access = {};
    for (const declared of hooks.map((h) => h[ACCESS]).filter((a) => a !== undefined)) {
      for (const key of Object.keys(declared) as (keyof Access)[]) {
        if (access[key] !== undefined && access[key] !== declared[key]) throw new Error(`${route.method} ${route.url}: two ${key} declarations`);
      }
      Object.assign(access, declared);
    }
    if (!access.auth) return;
    // A copy: several routes of a module share one schema object.
    route.schema = {
      ...route.schema,
      'x-auth': access.auth,
      ...(access.permission && { 'x-permission': access.permission }),
      ...(access.feature && { 'x-feature': access.feature }),
    } as FastifySchema;
  });
}

/** The caller, for handlers behind requireAuth. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('SESSION_EXPIRED');
  return request.auth;
}

/**
 * Bearer token → request.auth and request.authRoles; renews the token on `x-refreshed-token` when it
 * is old. With `payment`, the tenant's payment check too (request.payment, for requireFeature): all in
 * one transaction (issue 38: the session, the roles and the payment check were one each).
 */
async function authenticateBearer(request: FastifyRequest, reply: FastifyReply, payment: boolean): Promise<void> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new AppError('SESSION_EXPIRED');
  const { sessions, paymentCheck, accessCache } = request.server.deps;
  const alsoRead = payment
    ? async (tx: Queryable, access: { tenantId: number; version: string }) =>
      void (request.payment = await accessCache.get(access.tenantId, access.version, 'payment', () => paymentCheck(tx)))
    : undefined;
  const { auth, refreshed, roles, accessVersion } = await sessions.authenticate(match[1], { alsoRead });
  request.auth = auth;
  request.authRoles = roles;
  request.accessVersion = accessVersion;
  if (refreshed) void reply.header(REFRESHED_TOKEN_HEADER, refreshed);
}

/** Bearer token → request.auth (and the caller's roles); renews the token on `x-refreshed-token` when it is old. */
export const requireAuth = declareAccess({ auth: 'bearer' }, async function requireAuth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await authenticateBearer(request, reply, false);
});

/** requireAuth that also reads the tenant's payment check in its transaction, for a chain with requireFeature. */
export const requireAuthWithPayment = declareAccess({ auth: 'bearer' }, async function requireAuth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await authenticateBearer(request, reply, true);
});

const TENANT_FIELDS = ['ma_dn', 'CodeCompany'] as const;

/** Every tenant code a request names: path, query and body. */
function namedTenants(request: FastifyRequest): unknown[] {
  const sources = [request.params, request.query, request.body] as (Record<string, unknown> | undefined)[];
  return sources.flatMap((s) => (s && typeof s === 'object' ? TENANT_FIELDS.map((f) => s[f]).filter((x) => x !== undefined) : []));
}

/** A request that names another tenant than the token's is refused before anything runs. */
export async function tenantGuard(request: FastifyRequest): Promise<void> {
  const auth = authOf(request);
  if (namedTenants(request).some((code) => code !== auth.maDn)) throw new AppError('UNAUTHORIZED_TENANT');
}

/** SPEC §6: super-admin, "general", or the permission held by any of the user's roles. */
export function requirePermission(permission: string): preHandlerAsyncHookHandler {
  return declareAccess({ permission }, async function checkPermission(request: FastifyRequest) {
    if (!(await holdsPermission(request, permission))) throw new AppError('FORBIDDEN');
  });
}

/** Whether the caller holds a permission (SPEC §6), for handlers whose answer depends on it (a report's scope). */
export async function holdsPermission(request: FastifyRequest, permission: string): Promise<boolean> {
  request.authRoles ??= await request.server.deps.sessions.roles(authOf(request));
  const roles = request.authRoles.map((r) => ({ name: r.name, permissions: r.permissions.map((name) => ({ name })) }));
  return hasPermission(roles[0], permission) || roles.some((r) => hasPermission(r, permission));
}

/** The payment check must list the feature and not be past its expiry day. */
export function requireFeature(feature: FeatureName): preHandlerAsyncHookHandler {
  return declareAccess({ feature }, async function checkFeature(request: FastifyRequest) {
    const auth = authOf(request);
    const { db, paymentCheck, accessCache } = request.server.deps;
    // Read with the session when the chain began with requireAuthWithPayment (guarded), else now (from
    // memory when the tenant's access version read with the session has it).
    const read = () => db.withTenant(auth.tenantId, paymentCheck);
    request.payment ??= await (request.accessVersion ? accessCache.get(auth.tenantId, request.accessVersion, 'payment', read) : read());
    if (!isFeatureEnabled(request.payment, feature)) throw new AppError('FEATURE_NOT_PURCHASED');
  });
}

/** The usual chain of a tenant route: token, tenant match, then optional permission and feature. */
export function guarded(permission?: string, feature?: FeatureName): preHandlerAsyncHookHandler[] {
  const chain: preHandlerAsyncHookHandler[] = [(feature ? requireAuthWithPayment : requireAuth) as preHandlerAsyncHookHandler, tenantGuard as preHandlerAsyncHookHandler];
  if (permission) chain.push(requirePermission(permission));
  if (feature) chain.push(requireFeature(feature));
  return chain;
}
