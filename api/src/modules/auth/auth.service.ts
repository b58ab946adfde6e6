import { SUPER_ADMIN_ROLE, type LoginInput, type LoginResult, type MeResult } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { AccessCache } from '../../security/access-cache';
import type { AuthContext } from '../../security/session';
import { AppError } from '../../http/errors';
import { currentTenant, findTenantByMaDn } from '../tenants/tenants.service';
import { createActivityRecorder } from '../activity/activity-recorder.service';
import { allPermissionNames, userProfile, userRoles, type UserRoleRow } from './access.repository';
import { dummyHash, verifyPassword } from '../../security/password';
import { createSession, findLoginUser, findSession, revokeSession, revokeUserSessions, sessionTimes, touchSession } from './sessions.repository';
import { LoginThrottle } from './throttle';
import { ABSOLUTE_SESSION_S, ACCESS_TTL_S, nowSeconds, sessionState, type TokenService } from './tokens';
/** The roles of a user as the guards read them (http/types). */
export type { UserRoleRow };

/** Who is calling (the kernel's shape, security/session). */
export type { AuthContext };

export type AuthService = ReturnType<typeof createAuthService>;

declare module '../../deps' {
  interface AppDeps {
    /** The identity service (login, me, logout, sessions); server.ts also hands it to the guards as `sessions`. */
    auth: AuthService;
    tokens: TokenService;
  }
}

/**
 * For other modules, inside their transaction: a locked or deleted account's sessions end (all
 * of them, or all but the caller's own when a password changes). Their sockets close once the
 * caller tells the hub (CallEventHub.endSessions) after committing.
 */
export const endUserSessions: (tx: Queryable, userId: number, exceptSessionId?: string) => Promise<void> = revokeUserSessions;

/**
 * For user activity, inside the caller's tenant transaction: when each session ended without a
 * logout, as far as the server knows — revoked (account locked, password changed), its last token
 * lapsed (ACCESS_TTL_S after the last refresh), or the absolute limit — whichever came first, if
 * it is past `now`; sessions still alive are left out.
 */
export async function sessionEnds(tx: Queryable, ids: readonly string[], now = new Date()): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  for (const s of await sessionTimes(tx, ids)) {
    const ends = [new Date(s.last_seen_at).getTime() + ACCESS_TTL_S * 1000, new Date(s.created_at).getTime() + ABSOLUTE_SESSION_S * 1000];
    if (s.revoked_at) ends.push(new Date(s.revoked_at).getTime());
    const end = Math.min(...ends);
    if (end <= now.getTime()) out.set(s.id, new Date(end));
  }
  return out;
}

export function createAuthService(db: Db, tokens: TokenService, throttle: LoginThrottle, cache: AccessCache = new AccessCache()) {
  const activity = createActivityRecorder(db);
  /** `ip` is the client's address as the trusted proxy reports it (server.ts trustProxy). */
  async function login(input: LoginInput, ip: string): Promise<LoginResult> {
    const key = LoginThrottle.key(input.ma_dn, input.username, ip);
    await throttle.check(key);
    const tenant = await findTenantByMaDn(db, input.ma_dn);
    const user = tenant ? await db.withTenant(tenant.id, (tx) => findLoginUser(tx, input.username)) : null;
    // Unknown tenant or user still pays for one argon2 verify: same answer, same time.
    const ok = user ? await verifyPassword(user.password_hash, input.password) : await verifyPassword(await dummyHash(), input.password).then(() => false);
    if (!tenant || !user || !ok || user.status !== 'active') {
      await throttle.fail(key);
      throw new AppError('INVALID_CREDENTIALS');
    }
    await throttle.succeed(key);
    const session = await db.withTenant(tenant.id, (tx) => createSession(tx, tenant.id, user.id));
    await activity.login(tenant.id, user.id, session.id);
    const now = nowSeconds();
    const token = tokens.issue({ sub: String(user.id), tid: tenant.id, ma_dn: tenant.ma_dn, sid: session.id }, now, session.createdAt);
    return { token, ma_dn: tenant.ma_dn, tenant_name: tenant.name, expires_in: ACCESS_TTL_S };
  }

  /**
   * Checks a bearer token; returns a renewed token when the sliding window says so, the user's roles
   * and the tenant's access version. One transaction for all a request's guards ask (issue 38): the
   * session with the access version, a renewal's touch, and what is not in memory for that version
   * (the roles; what `alsoRead` reads: the feature guard's payment check) — it was one transaction each.
   */
  async function authenticate(token: string, options: { now?: number; alsoRead?: (tx: Queryable, access: { tenantId: number; version: string }) => Promise<void> } = {}): Promise<{ auth: AuthContext; refreshed?: string; roles: UserRoleRow[]; accessVersion: string }> {
    const { now = nowSeconds(), alsoRead } = options;
    const claims = tokens.read(token);
    if (!claims) throw new AppError('SESSION_EXPIRED');
    const userId = Number(claims.sub);
    const found = await db.withTenant(claims.tid, async (tx) => {
      const session = await findSession(tx, claims.sid, userId);
      const state = sessionState(claims, session, now);
      if (state === 'expired' || !session) return null;
      if (state !== 'valid') await touchSession(tx, claims.sid);
      await alsoRead?.(tx, { tenantId: claims.tid, version: session.accessVersion });
      return { session, state, roles: await cache.get(claims.tid, session.accessVersion, `roles:${userId}`, () => userRoles(tx, userId)) };
    });
    if (!found) throw new AppError('SESSION_EXPIRED');
    const auth: AuthContext = { userId, tenantId: claims.tid, maDn: claims.ma_dn, sessionId: claims.sid };
    const { accessVersion } = found.session;
    if (found.state === 'valid') return { auth, roles: found.roles, accessVersion };
    return { auth, roles: found.roles, accessVersion, refreshed: tokens.issue(claims, now, found.session.createdAt) };
  }

  /** For long-lived sockets: the session is neither revoked (nor its user locked) nor past the absolute limit. */
  async function sessionAlive(auth: AuthContext, now = nowSeconds()): Promise<boolean> {
    const session = await db.withTenant(auth.tenantId, (tx) => findSession(tx, auth.sessionId, auth.userId));
    return !!session && !session.revoked && now < session.createdAt + ABSOLUTE_SESSION_S;
  }

  async function logout(auth: AuthContext): Promise<void> {
    await db.withTenant(auth.tenantId, (tx) => revokeSession(tx, auth.sessionId));
    await activity.logout(auth.tenantId, auth.userId, auth.sessionId);
  }

  const roles = (auth: AuthContext): Promise<UserRoleRow[]> => db.withTenant(auth.tenantId, (tx) => userRoles(tx, auth.userId));

  async function me(auth: AuthContext): Promise<MeResult> {
    return db.withTenant(auth.tenantId, async (tx) => {
      const [profile, tenant, roleRows, everything] = [await userProfile(tx, auth.userId), await currentTenant(tx), await userRoles(tx, auth.userId), await allPermissionNames(tx)];
      if (!profile || !tenant) throw new AppError('SESSION_EXPIRED');
      return {
        ...profile,
        tenant: { ma_dn: tenant.ma_dn, name: tenant.name },
        roles: roleRows.map((r) => ({
          id: r.id,
          name: r.name,
          permissions: (r.name === SUPER_ADMIN_ROLE ? everything : r.permissions).map((name) => ({ name })),
        })),
      };
    });
  }

  return { login, authenticate, sessionAlive, logout, roles, me };
}

/** For the modules that change accounts and roles: delegated permissions never escalate (ADR 0018). */
export { assertCanAssignRole, assertCanChangePermissions, assertCanEditRole, assertCanTouchUser, privilegesOfUser } from './privileges';
