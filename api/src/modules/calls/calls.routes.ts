import { sipDomain } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/db';
import { nationalForm, planCall, type CallInput, type LiveState } from '../routing';
import { CallTracker, type CallEvent } from './call-tracker';
import { CdrWriter, lastAnsweringAgent } from './cdr.repository';
import { registerMediaRoutes } from './media.routes';
import { Continuations } from './continuation';
import { toPbxCallEvent, type CallEventHub } from '../realtime/call-event-hub';
import { PbxConfigCache, type ConfigLoader } from './config-cache';
import { EvapiClient, parseAddress } from './evapi-client';
import { kamailioJson, parseTrunks, toKamailioPlan, type KamailioPlan, type Trunks } from './kamailio-plan';
import { Registrations } from './registrations';
import { TenantLookup } from './tenant-lookup';

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
}

const text = (max: number) => v.optional(v.pipe(v.string(), v.maxLength(max)), '');
const RouteQuery = v.object({
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  source: v.picklist(['trunk', 'ext', 'media']),
  /** source=media: the token of the continuation the media worker dials. */
  continue: text(64),
  from: text(64),
  from_domain: text(255),
  to: text(64),
  at: text(40),
});
/** Kamailio sends numbers as strings (dialog variables), '' when unset. */
const intOrNull = v.pipe(
  v.optional(v.nullable(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d*$/))]))),
  v.transform((x): number | null => (x === undefined || x === null || x === '' ? null : Number(x))),
);
const CallEvent = v.object({
  event: v.picklist(['answer', 'end', 'failed']),
  call_id: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  ext: v.optional(v.nullable(v.string()), null),
  step: intOrNull,
  code: intOrNull,
});
const RegistrationBody = v.object({
  user: v.pipe(v.string(), v.regex(/^[0-9]{2,6}$/)),
  domain: v.pipe(v.string(), v.maxLength(255)),
  expires: intOrNull,
});

const refuse = (code: number, reason: string): KamailioPlan => ({ domain: '', steps: [{ do: 'reject', code, reason, from_step: 0 }] });

/** National and as-received forms of a caller number (CDR lookups for last-call routing). */
const callerForms = (n: string) => [...new Set([n, nationalForm(n)])];

/**
 * Kamailio's side of call routing, on the internal listener only (never the public port):
 *   GET  /internal/sip/route         the plan of a new call (one JSON line for jansson), kept per Call-ID
 *   POST /internal/sip/registration  a REGISTER Kamailio saved (the engine's "registered")
 *   GET  /internal/sip/registrations?domain=  who is registered, as the engine sees it
 *   GET  /internal/sip/calls          calls in progress and whether Kamailio's events arrive
 * Answer / end / failure of each call come from the dialog module's event routes over evapi.
 * docs/adr/0011-call-routing-in-kamailio.md describes the protocol and its costs.
 */
export function registerCallRoutes(app: FastifyInstance, db: Db, opts: CallRoutingOptions = {}): CallTracker {
  const trunks = opts.trunks ?? parseTrunks(process.env.SIP_TRUNKS);
  const testClock = opts.testClock ?? false;
  const configs = new PbxConfigCache(db, { load: opts.loadConfig });
  const tenants = new TenantLookup(db);
  const registrations = new Registrations();
  const writer = new CdrWriter(db, { intervalMs: opts.cdrFlushMs, onError: (err) => app.log.error({ err }, 'CDR write failed') });
  const tracker = new CallTracker((row) => writer.add(row));
  const hub = opts.hub;
  if (hub) tracker.events.on('call', (e: CallEvent) => hub.publish(e.tenantId, toPbxCallEvent(e)));
  const sweeper = setInterval(() => tracker.sweep(), 60_000);
  sweeper.unref();
  const evapiAddress = parseAddress(opts.evapi ?? process.env.KAMAILIO_EVAPI);
  const events = evapiAddress ? new EvapiClient(evapiAddress, onCallEvent).start() : null;
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    events?.stop();
    await writer.flush();
  });

  function onCallEvent(raw: unknown): void {
    const e = v.safeParse(CallEvent, raw);
    if (!e.success) return;
    const { event, call_id: callId, ext, step, code } = e.output;
    if (event === 'answer') tracker.answered(callId, ext && /^[0-9]{2,6}$/.test(ext) ? ext : null, step ?? null);
    else if (event === 'end') tracker.ended(callId);
    else tracker.failed(callId, code || 487, step ?? null);
  }

  const continuations = new Continuations();

  /** Live state for the engine: who is registered and busy now, the caller's last agent. */
  async function liveState(tenantId: number, domain: string, caller: string, config: Awaited<ReturnType<PbxConfigCache['get']>>): Promise<LiveState> {
    const forms = callerForms(caller);
    const last = config.lastCalls?.length ? (tracker.recentAgent(tenantId, forms) ?? (await lastAnsweringAgent(db, tenantId, forms))) : null;
    return {
      registered: registrations.registered(domain),
      busy: tracker.busy(tenantId),
      lastAgent: () => last,
      agentStats: tracker.agentStats(tenantId),
      memory: new Map(),
    };
  }

  /** A leg the media worker places with a continuation token: the plan prepared for it. */
  function continued(q: v.InferOutput<typeof RouteQuery>): KamailioPlan {
    const c = continuations.take(q.continue);
    if (!c) return refuse(404, 'Not Found');
    const parent = tracker.get(c.parentCallId);
    const kamailio = toKamailioPlan(c.plan, sipDomain(c.maDn), trunks);
    tracker.start({
      callId: q.call_id,
      tenantId: c.tenantId,
      caller: parent?.caller ?? c.plan.from,
      callee: parent?.callee ?? c.plan.to,
      callerExtension: null,
      plan: c.plan,
      kamailio,
      startedAt: new Date(),
      maDn: c.maDn,
      parentCallId: c.parentCallId,
    });
    return kamailio;
  }

  async function plan(q: v.InferOutput<typeof RouteQuery>): Promise<KamailioPlan> {
    const known = tracker.get(q.call_id);
    if (known) return known.kamailio;
    if (q.source === 'media') return continued(q);
    const at = testClock && q.at && !Number.isNaN(Date.parse(q.at)) ? new Date(q.at) : new Date();
    const tenant = q.source === 'trunk' ? await tenants.ofDid(q.to) : await tenants.ofDomain(q.from_domain);
    // No tenant, no record: a carrier calling a number nobody owns, or a domain Kamailio should not have let in.
    if (!tenant) return q.source === 'trunk' ? refuse(404, 'Not Found') : refuse(403, 'Forbidden');
    const call: CallInput =
      q.source === 'trunk' ? { from: q.from, to: q.to, direction: 'inbound', at } : { from: q.from, to: q.to, direction: 'outbound', fromExtension: q.from, at };
    const config = await configs.get(tenant.tenantId, tenant.maDn);
    const domain = sipDomain(tenant.maDn);
    const state = await liveState(tenant.tenantId, domain, q.from, config);
    const routing = planCall(config, call, state);
    const kamailio = toKamailioPlan(routing, domain, trunks);
    tracker.start({
      callId: q.call_id,
      tenantId: tenant.tenantId,
      maDn: tenant.maDn,
      caller: q.from,
      callee: q.to,
      callerExtension: q.source === 'ext' ? q.from : null,
      plan: routing,
      kamailio,
      startedAt: new Date(),
    });
    return kamailio;
  }

  app.get('/internal/sip/route', async (request, reply) => {
    const q = v.safeParse(RouteQuery, request.query);
    if (!q.success) return reply.status(400).type('application/json').send(kamailioJson(refuse(400, 'Bad Request')));
    return reply.type('application/json').header('cache-control', 'no-store').send(kamailioJson(await plan(q.output)));
  });

  app.post('/internal/sip/registration', async (request, reply) => {
    const r = v.safeParse(RegistrationBody, request.body);
    if (!r.success) return reply.status(400).send({ ok: false });
    registrations.report(r.output.domain, r.output.user, r.output.expires ?? 0);
    return { ok: true };
  });

  registerMediaRoutes(app, {
    db,
    tracker,
    continuations,
    config: (tenantId, maDn) => configs.get(tenantId, maDn),
    liveState,
  });

  app.get('/internal/sip/calls', async () => ({ events_connected: events?.connected ?? false, active: tracker.activeCount() }));

  app.get<{ Querystring: { domain?: string } }>('/internal/sip/registrations', async (request) => ({
    extensions: [...registrations.registered(String(request.query.domain ?? ''))].sort(),
  }));

  return tracker;
}
