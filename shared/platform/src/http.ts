import ky, { HTTPError, type KyInstance } from 'ky';
import { ERROR_CODES, isApiErrorBody, MSG, REFRESHED_TOKEN_HEADER, routes, tenantBase } from '@tongdai/contracts/lean';
import type { ApiErrorBody, ApiBases } from '@tongdai/contracts';
import { getRuntimeConfig } from './config';
import { getOrCreateGlobalSingleton } from './global';
import { flash } from './notices';
import { session } from './session';
import { storage } from './storage';

type Surface = keyof ApiBases;

/** Tokens the user is logging out of (logout below): the API refuses them from then on, and that is no expiry. */
const signingOut = getOrCreateGlobalSingleton('signingOutTokens', () => new Set<string>());

/** Logout (auth.ts) is about to revoke `token`: answers refusing it from now on do not end a session. */
export function markSigningOut(token: string): void {
  signingOut.add(token);
}

/**
 * Session expiry (SPEC §8): clear local storage, go to /login, say why; the login then goes back to
 * the page the user was on (routes.login's ?next=).
 * A full navigation on purpose: every remote's in-memory state goes with the session.
 * `refused`: the token the API refused. A refusal of a token that is no longer the session's (one the
 * user is logging out of, or an older one) ends nothing: a request still in flight when the user
 * clicked "Đăng xuất" was once answered 401 and sent the logout to "session expired" with a ?next=.
 */
export function expireSession(refused?: string | null): void {
  if (refused !== undefined && (refused === null || signingOut.has(refused) || refused !== session.get().token)) return;
  flash.set(MSG.sessionExpired);
  if (globalThis.location && globalThis.location.pathname !== '/login') {
    // Storage only: the page reloads onto /login and reads the (now empty) session from it.
    // Updating the live session first would race the reload to the login screen's message.
    storage.clearSession();
    globalThis.location.assign(routes.login(globalThis.location.pathname + globalThis.location.search));
  } else {
    session.clear();
  }
}

/**
 * Which answers end the session. Control panel and identity: 401 or 403 (SPEC §8).
 * Tenant, PBX and telecom: 401 only; their 403 means "not allowed" and is shown as such
 * (docs/adr/0004-session-expiry.md).
 */
function endsSession(surface: Surface, status: number): boolean {
  if (surface === 'cp' || surface === 'identity') return status === 401 || status === 403;
  return status === 401;
}

function create(surface: Surface, prefixUrl: string, withAuth: boolean): KyInstance {
  return ky.create({
    prefixUrl,
    timeout: 20_000,
    retry: { limit: 1, methods: ['get'], statusCodes: [502, 503, 504] },
    hooks: {
      beforeRequest: [
        (request) => {
          const token = session.get().token;
          if (withAuth && token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          const renewed = response.headers.get(REFRESHED_TOKEN_HEADER);
          if (withAuth && renewed && session.get().token) session.setToken(renewed);
          const sent = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? null;
          if (withAuth && endsSession(surface, response.status)) expireSession(sent);
          return response;
        },
      ],
    },
  });
}

const cache = getOrCreateGlobalSingleton('httpClients', () => new Map<string, KyInstance>());

function client(surface: Surface, withAuth = true): KyInstance {
  const bases = getRuntimeConfig().apis;
  const base = surface === 'tenant' ? tenantBase(bases.tenant, session.get().maDn ?? '') : bases[surface];
  const key = `${surface}|${base}|${withAuth}`;
  let c = cache.get(key);
  if (!c) cache.set(key, (c = create(surface, base, withAuth)));
  return c;
}

/** The five API clients of SPEC §7. Paths are relative: `tenantApi().get('customers')`. */
export const cpApi = () => client('cp');
export const identityApi = () => client('identity');
export const pbxApi = () => client('pbx');
export const tenantApi = () => client('tenant');
export const telecomApi = () => client('telecom');
/** For the login calls themselves: a 401 there means wrong credentials, not an expired session. */
export const publicApi = (surface: Surface) => client(surface, false);

/** Reads the API's error body; anything else becomes the generic failure (SPEC §8). */
export async function toApiError(err: unknown): Promise<ApiErrorBody> {
  if (err instanceof HTTPError || (err as HTTPError)?.name === 'HTTPError') {
    const response = (err as HTTPError).response;
    try {
      const body: unknown = await response.clone().json();
      if (isApiErrorBody(body)) return body;
    } catch { /* not JSON */ }
    return { status: response.status, code: ERROR_CODES.internal, message: MSG.generic };
  }
  return { status: 0, code: ERROR_CODES.internal, message: MSG.generic };
}
