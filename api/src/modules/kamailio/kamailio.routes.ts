import { sipDomain, type PbxConfig } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { parseSpyNumber } from '@tongdai/contracts';
import { planCall, ROUTING_MSG, type CallInput, type LiveState, type RoutingPlan } from '../routing';
import type { CallTracker } from '../cdr/call-tracker';
import type { ContinuationStore } from '../media/continuation';
import { parseEventMark } from './applied-events';
import { intOrNull } from './call-events';
import type { EvapiClient } from './evapi-client';
import { KAMAILIO_READABLE_BYTES, kamailioJson, planForKamailio, toKamailioPlan, type KamailioPlan, type PlanTrunks } from './kamailio-plan';
import type { CallSwitchboard } from '../trunks/trunks.service';
import type { TenantLookup } from './tenant-lookup';
import type { RegistrationStore } from '../realtime/registration-store';

export interface KamailioRouteDeps {
  tracker: CallTracker;
  /** Who is registered (ADR 0038): written here as Kamailio reports, read by the engine and the wall. */
  registrations: RegistrationStore;
  tenants: TenantLookup;
  continuations: ContinuationStore;
  /** Kamailio's event connection (null when KAMAILIO_EVAPI is unset). */
  events: EvapiClient | null;
  /** The tenant's switchboards for its plans, and its channel limit over all of them. */
  trunks(tenantId: number, config: PbxConfig): Promise<PlanTrunks & { maxChannels: number }>;
  /** The tenant's enabled switchboard at this source address, or null (a carrier's call is accepted only from one). */
  carrierFor(tenantId: number, ip: string, port: number): Promise<CallSwitchboard | null>;
  /** Accept `at` (ISO time) on plan requests, to test time conditions. */
  testClock: boolean;
  config(tenantId: number, maDn: string): Promise<PbxConfig>;
  liveState(tenantId: number, caller: string, config: PbxConfig, callee?: string, callId?: string): Promise<LiveState>;
  /** Whether the user of this extension holds monitor.spy (a supervisor's feature code, ADR 0042). */
  maySpy(tenantId: number, extension: string): Promise<boolean>;
  /** A registration began or ended (not a refresh): user activity and the wall's event. */
  onRegistration(tenantId: number, extension: string, registered: boolean): Promise<void>;
  /** A REGISTER's report could not be recorded (`err`): Kamailio is to be asked again later. */
  registrationMissed?(err: unknown): void;
}

/**
 * A registration Kamailio reports (a REGISTER it saved, or its location table when the API connects,
 * issue 41): into the store, and, when it begins or ends, the wall and user activity. One tenant
 * lookup; a domain no tenant owns has nobody to register (Kamailio let it in by mistake).
 */
export async function reportRegistration(
  d: Pick<KamailioRouteDeps, 'tenants' | 'registrations' | 'onRegistration'>,
  r: { user: string; domain: string; expires: number; ua?: string },
): Promise<void> {
  const tenant = await d.tenants.ofDomain(r.domain);
  if (!tenant) return;
  const change = await d.registrations.report(tenant.tenantId, r.user, r.expires, r.ua || undefined);
  if (change === 'registered' || change === 'unregistered') await d.onRegistration(tenant.tenantId, r.user, change === 'registered');
}

/**
 * The longest a plan waits for the call events Kamailio sent before it asked (applied-events.ts): they are
 * in flight for well under a millisecond on a healthy API; an API this far behind is overloaded anyway.
 */
const PLAN_EVENTS_WAIT_MS = 25;
/** TONGDAI_PLAN_EVENTS_WAIT_MS, read per request (a test on a loaded machine waits longer than a healthy API needs; 0: no wait). */
function planEventsWaitMs(): number {
  const set = process.env.TONGDAI_PLAN_EVENTS_WAIT_MS;
  const ms = set === undefined || set === '' ? NaN : Number(set);
  return Number.isFinite(ms) && ms >= 0 ? ms : PLAN_EVENTS_WAIT_MS;
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
  /** source=trunk: where the INVITE came from, "ip:port" (Kamailio's $si:$sp). */
  src: text(60),
  /** The last call event Kamailio had numbered when it asked, "<start>.<seq>" (applied-events.ts). */
  ev: text(40),
});
const RegistrationBody = v.object({
  user: v.pipe(v.string(), v.regex(/^[0-9]{2,6}$/)),
  domain: v.pipe(v.string(), v.maxLength(255)),
  expires: intOrNull,
  /** The phone's User-Agent header, when it sent one (kept to 200 characters). */
  ua: v.optional(v.pipe(v.string(), v.transform((s) => s.trim().slice(0, 200)))),
});

const refuse = (code: number, reason: string, cause?: string): KamailioPlan => ({ domain: '', steps: [{ do: 'reject', code, reason, ...(cause && { cause }), from_step: 0 }] });

/** "1.2.3.4:5060" → its parts, or null. */
function sourceOf(src: string): { ip: string; port: number } | null {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(src);
  return m ? { ip: m[1], port: Number(m[2]) } : null;
}

/**
 * Kamailio's side of call routing, on the internal listener only (never the public port):
 *   GET  /internal/sip/route         the plan of a new call (one JSON line for jansson), kept per Call-ID
 *   POST /internal/sip/registration  a REGISTER Kamailio saved (the engine's "registered")
 *   GET  /internal/sip/registrations?domain=  who is registered, as the engine sees it
 *   GET  /internal/sip/calls          calls in progress and whether Kamailio's events arrive
 * Answer / end / failure of each call come from the dialog module's event routes over evapi.
 * docs/adr/0011-call-routing-in-kamailio.md describes the protocol and its costs.
 */
export function registerKamailioRoutes(app: FastifyInstance, d: KamailioRouteDeps): void {
  const { tracker } = d;

  /** A leg the media worker places with a continuation token: the plan prepared for it. */
  async function continued(q: v.InferOutput<typeof RouteQuery>): Promise<KamailioPlan> {
    const c = await d.continuations.take(q.continue);
    if (!c) return refuse(404, 'Not Found');
    const parent = c.parentCallId ? tracker.get(c.parentCallId) : undefined;
    const trunks = await d.trunks(c.tenantId, await d.config(c.tenantId, c.maDn));
    const kamailio = { ...toKamailioPlan(c.plan, sipDomain(c.maDn), trunks), tenant: c.tenantId, tenant_max: trunks.maxChannels };
    tracker.start({
      callId: q.call_id,
      tenantId: c.tenantId,
      caller: parent?.caller ?? c.plan.from,
      callee: parent?.callee ?? c.plan.to,
      callerExtension: c.callerExtension ?? null,
      plan: c.plan,
      kamailio,
      startedAt: new Date(),
      maDn: c.maDn,
      parentCallId: c.parentCallId,
    });
    return kamailio;
  }

  /**
   * *222 / *223 / *224 + an extension from a supervisor's phone (ADR 0042): to the worker that
   * holds that extension's call, if the caller's user holds monitor.spy and there is such a call.
   */
  async function spyPlan(tenantId: number, from: string, to: string, spy: NonNullable<ReturnType<typeof parseSpyNumber>>): Promise<RoutingPlan> {
    const source = { type: 'extension' as const, id: spy.extension, name: `Giám sát ${spy.extension}` };
    const base = { direction: 'internal' as const, from, to, did: null, route: [source], interactive: false };
    if (!(await d.maySpy(tenantId, from))) {
      return { ...base, steps: [{ kind: 'reject', code: 403, reason: 'spy_forbidden', message: ROUTING_MSG.spy_forbidden(), source }] };
    }
    const target = spy.extension === from ? null : tracker.spyTarget(tenantId, spy.extension);
    if (!target) return { ...base, steps: [{ kind: 'reject', code: 404, reason: 'spy_no_call', message: ROUTING_MSG.spy_no_call(spy.extension), source }] };
    return { ...base, steps: [{ kind: 'spy', mode: spy.mode, extension: spy.extension, ...target, source }, { kind: 'hangup', source }] };
  }

  async function plan(q: v.InferOutput<typeof RouteQuery>): Promise<KamailioPlan> {
    const known = tracker.get(q.call_id);
    if (known) return known.kamailio;
    if (q.source === 'media') return continued(q);
    const at = d.testClock && q.at && !Number.isNaN(Date.parse(q.at)) ? new Date(q.at) : new Date();
    const tenant = q.source === 'trunk' ? await d.tenants.ofDid(q.to) : await d.tenants.ofDomain(q.from_domain);
    // No tenant, no record: a carrier calling a number nobody owns, or a domain Kamailio should not have let in.
    if (!tenant) return q.source === 'trunk' ? refuse(404, 'Not Found') : refuse(403, 'Forbidden');
    // No open relay: a call without digest comes from one of this tenant's switchboards, or nowhere.
    let carrier: CallSwitchboard | null = null;
    if (q.source === 'trunk') {
      const src = sourceOf(q.src);
      carrier = src && (await d.carrierFor(tenant.tenantId, src.ip, src.port));
      if (!carrier) return refuse(403, 'Forbidden', 'unknown_carrier');
    }
    const call: CallInput =
      q.source === 'trunk' ? { from: q.from, to: q.to, direction: 'inbound', at } : { from: q.from, to: q.to, direction: 'outbound', fromExtension: q.from, at };
    const config = await d.config(tenant.tenantId, tenant.maDn);
    const domain = sipDomain(tenant.maDn);
    const spy = q.source === 'ext' ? parseSpyNumber(q.to) : null;
    const routing = spy ? await spyPlan(tenant.tenantId, q.from, q.to, spy) : planCall(config, call, await d.liveState(tenant.tenantId, q.from, config, call.direction === 'outbound' ? q.to : undefined, q.call_id));
    const trunks = await d.trunks(tenant.tenantId, config);
    const kamailio: KamailioPlan = {
      ...toKamailioPlan(routing, domain, trunks),
      tenant: tenant.tenantId,
      tenant_max: trunks.maxChannels,
      ...(carrier && { inbound_sb: carrier.id, inbound_max: carrier.maxChannels }),
    };
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
    // Every call event Kamailio sent before it asked is applied first: a call that has just ended no
    // longer holds its phone busy. Bounded: an event this connection missed is not waited for twice.
    const mark = parseEventMark(q.output.ev);
    const waitMs = planEventsWaitMs();
    if (mark && d.events && waitMs > 0) await d.events.applied.waitFor(mark[0], mark[1], waitMs);
    const kamailio = await plan(q.output);
    // The call as followed here, for Kamailio's outbox ("start", ADR 0046): no database write waits
    // in the plan's path, and a process that dies before its journal has the call loses nothing.
    const j = tracker.snapshot(q.output.call_id);
    const fit = planForKamailio(kamailio, j);
    if (fit.left === 'state') request.log.warn(`routing plan for ${q.output.call_id}: ${fit.bytes} bytes, sent without the call's state for Kamailio's outbox (over ${KAMAILIO_READABLE_BYTES} with it); the journal keeps the call`);
    if (fit.left === 'plan') request.log.error(`routing plan for ${q.output.call_id}: ${fit.bytes} bytes, more than Kamailio can read (${KAMAILIO_READABLE_BYTES}); the call is refused (503)`);
    return reply.type('application/json').header('cache-control', 'no-store').send(fit.body);
  });

  app.post('/internal/sip/registration', async (request, reply) => {
    const r = v.safeParse(RegistrationBody, request.body);
    if (!r.success) return reply.status(400).send({ ok: false });
    await reportRegistration(d, { ...r.output, expires: r.output.expires ?? 0 }).catch((err: unknown) => {
      d.registrationMissed?.(err);
      throw err;
    });
    return { ok: true };
  });

  app.get('/internal/sip/calls', async () => ({ events_connected: d.events?.connected ?? false, active: tracker.activeCount() }));

  app.get<{ Querystring: { domain?: string } }>('/internal/sip/registrations', async (request) => {
    const tenant = await d.tenants.ofDomain(String(request.query.domain ?? ''));
    return { extensions: tenant ? [...(await d.registrations.registered(tenant.tenantId))].sort() : [] };
  });
}
