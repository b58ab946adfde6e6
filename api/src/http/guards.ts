import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { hasPermission, isFeatureEnabled, REFRESHED_TOKEN_HEADER, type FeatureName } from '@tongdai/contracts';
import type { AuthContext } from '../modules/auth/auth.service';
import { getPaymentCheck } from '../modules/settings/settings.service';
import { AppError } from './errors';
import './types';

/** The caller, for handlers behind requireAuth. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('SESSION_EXPIRED');
  return request.auth;
}

/** Bearer token → request.auth; renews the token on `x-refreshed-token` when it is old. */
export async function requireAuth(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new AppError('SESSION_EXPIRED');
  const { auth, refreshed } = await request.server.deps.auth.authenticate(match[1]);
  request.auth = auth;
  if (refreshed) void reply.header(REFRESHED_TOKEN_HEADER, refreshed);
}

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
  return async function checkPermission(request) {
    const auth = authOf(request);
    request.authRoles ??= await request.server.deps.auth.roles(auth);
    const roles = request.authRoles.map((r) => ({ name: r.name, permissions: r.permissions.map((name) => ({ name })) }));
    if (!hasPermission(roles[0], permission) && !roles.some((r) => hasPermission(r, permission))) throw new AppError('FORBIDDEN');
  };
}

/** The payment check must list the feature and not be past its expiry day. */
export function requireFeature(feature: FeatureName): preHandlerAsyncHookHandler {
  return async function checkFeature(request) {
    const auth = authOf(request);
    const payment = await request.server.deps.db.withTenant(auth.tenantId, getPaymentCheck);
    if (!isFeatureEnabled(payment, feature)) throw new AppError('FEATURE_NOT_PURCHASED');
  };
}

/** The usual chain of a tenant route: token, tenant match, then optional permission and feature. */
export function guarded(permission?: string, feature?: FeatureName): preHandlerAsyncHookHandler[] {
  const chain: preHandlerAsyncHookHandler[] = [requireAuth as preHandlerAsyncHookHandler, tenantGuard as preHandlerAsyncHookHandler];
  if (permission) chain.push(requirePermission(permission));
  if (feature) chain.push(requireFeature(feature));
  return chain;
}
