import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is changing the data, for the audit log (migration 0065, ADR 0057): the logged-in user of the
 * request a transaction runs for, and where the request came from. The database's triggers read it
 * from the transaction-local setting `app.actor` (enterTenant / enterSystem put it there); with none
 * (system work: the dialer, the media worker, Kamailio's internal calls, seeds) nothing is logged.
 */
export interface Actor {
  user_id: number;
  /** The tenant of the user's session (a change under withSystem may touch another tenant's rows). */
  tenant_id: number;
  ip: string;
  user_agent: string;
  request_id: string;
}

/** The request a piece of work belongs to: asked for its actor at the moment a transaction opens. */
export interface ActorScope {
  actor(): Actor | null;
}

const scopes = new AsyncLocalStorage<ActorScope>();

/** Runs `fn` (and everything it starts) inside `scope`. */
export function runInActorScope<T>(scope: ActorScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The actor of the work running now, or null (no request, or a request with no user). */
export function currentActor(): Actor | null {
  return scopes.getStore()?.actor() ?? null;
}

/** The value of `app.actor` for a transaction opened now: JSON, or '' when nobody acts. */
export const actorSetting = (): string => {
  const actor = currentActor();
  return actor ? JSON.stringify(actor) : '';
};
