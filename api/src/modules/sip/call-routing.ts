import { allNumberForms, type PbxConfig } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import { CallTracker } from '../cdr/call-tracker';
import { CdrWriter, lastAnsweringAgent } from '../cdr/cdr.service';
import { applyKamailioEvent } from '../kamailio/call-events';
import { EvapiClient, parseAddress } from '../kamailio/evapi-client';
import { parseTrunks, type Trunks } from '../kamailio/kamailio-plan';
import { registerKamailioRoutes } from '../kamailio/kamailio.routes';
import { Registrations } from '../kamailio/registrations';
import { TenantLookup } from '../kamailio/tenant-lookup';
import { Continuations } from '../media/continuation';
import { registerMediaRoutes } from '../media/media.routes';
import { PbxConfigCache, type ConfigLoader } from '../pbx/config-cache';
import type { CallEventHub } from '../realtime/call-event-hub';
import { LiveFeed } from '../realtime/live-feed';
import type { LiveState } from '../routing';

export interface CallRoutingOptions {
  /** Trunk name → host[:port]; default from SIP_TRUNKS ("viettel=10.0.0.5:5060,vnpt=..."). */
  trunks?: Trunks;
  /** Accept `at` (ISO time) on plan requests, to test time conditions. Off unless asked (main.ts: TONGDAI_TEST_CLOCK=1). */
  testClock?: boolean;
  /** Replaces the PBX configuration loader (tests). */
  loadConfig?: ConfigLoader;
  cdrFlushMs?: number;
  /** Kamailio's evapi address ("127.0.0.1:8448") the call events come from; default KAMAILIO_EVAPI. */
  evapi?: string;
  /** Where ringing / answered / ended go for the browsers (the public server's real-time channel). */
  hub?: CallEventHub;
  /** The shared secret the evapi handshake proves (set by buildInternalServer, ADR 0019). */
  internalSecret?: string;
}

/**
 * The wiring of call routing on the internal listener: Kamailio's endpoints (kamailio/), the media
 * worker's (media/), the records they leave (cdr/) and the PBX configuration they read (pbx/).
 */
export function registerCallRouting(app: FastifyInstance, db: Db, opts: CallRoutingOptions = {}): CallTracker {
  const configs = new PbxConfigCache(db, { load: opts.loadConfig });
  const registrations = new Registrations();
  const writer = new CdrWriter(db, { intervalMs: opts.cdrFlushMs, onError: (err) => app.log.error({ err }, 'CDR write failed') });
  const tracker = new CallTracker((row) => writer.add(row));
  const hub = opts.hub;
  // Call events and the live state (the wall's snapshot) for the browsers (ADR 0026).
  const feed = hub ? new LiveFeed(tracker, hub) : null;
  const tenants = new TenantLookup(db);
  const sweeper = setInterval(() => tracker.sweep(), 60_000);
  sweeper.unref();
  const evapiAddress = parseAddress(opts.evapi ?? process.env.KAMAILIO_EVAPI);
  const events = evapiAddress ? new EvapiClient(evapiAddress, (raw) => applyKamailioEvent(tracker, raw), opts.internalSecret ?? '').start() : null;
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    feed?.stop();
    events?.stop();
    await writer.flush();
  });

  /** Live state for the engine: who is registered and busy now, the caller's last agent. */
  async function liveState(tenantId: number, domain: string, caller: string, config: PbxConfig): Promise<LiveState> {
    // Every form the caller's number may have been recorded in (CDR lookups for last-call routing).
    const forms = [...new Set([caller, ...allNumberForms(caller)])];
    const last = config.lastCalls?.length ? (tracker.recentAgent(tenantId, forms) ?? (await lastAnsweringAgent(db, tenantId, forms))) : null;
    return {
      registered: registrations.registered(domain),
      busy: tracker.busy(tenantId),
      lastAgent: () => last,
      agentStats: tracker.agentStats(tenantId),
      memory: new Map(),
    };
  }

  const continuations = new Continuations();
  const config = (tenantId: number, maDn: string) => configs.get(tenantId, maDn);
  registerKamailioRoutes(app, {
    tracker,
    registrations,
    tenants,
    onRegistration: feed
      ? (domain, extension, expires) =>
          void tenants.ofDomain(domain).then(
            (t) => t && feed.registration(t.tenantId, extension, expires),
            (err: unknown) => app.log.warn({ err }, 'registration event failed'),
          )
      : undefined,
    continuations,
    events,
    trunks: opts.trunks ?? parseTrunks(process.env.SIP_TRUNKS),
    testClock: opts.testClock ?? false,
    config,
    liveState,
  });
  registerMediaRoutes(app, { db, tracker, continuations, config, liveState, onQueued: feed ? (callId, queueId, agents) => feed.queued(callId, queueId, agents) : undefined });
  return tracker;
}
