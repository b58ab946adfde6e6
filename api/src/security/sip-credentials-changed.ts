import { EventEmitter } from 'node:events';

/**
 * Kamailio keeps each extension's HA1 for a minute (issue 15: one API lookup per extension and
 * minute instead of one per REGISTER and INVITE; ADR 0036). Whatever may change what the API would
 * answer for a tenant's extensions — a SIP password reset, an extension renumbered, linked or
 * deleted, an account locked or deleted — says so here, and the call plane tells Kamailio to forget
 * that tenant's cached HA1s at once (sip/call-routing.ts, over evapi). Another API instance's change
 * comes through the hub (server.ts relays both ways, `elsewhere` set on what came from another
 * instance, issue 42); a message lost (Kamailio restarting, Redis away) costs at most the minute.
 */
const changes = new EventEmitter();
changes.setMaxListeners(100);

export function sipCredentialsChanged(tenantId: number, elsewhere = false): void {
  changes.emit('change', tenantId, elsewhere);
}

/** Subscribes to the changes; returns the unsubscribe. */
export function onSipCredentialsChanged(listener: (tenantId: number, elsewhere: boolean) => void): () => void {
  changes.on('change', listener);
  return () => changes.off('change', listener);
}
