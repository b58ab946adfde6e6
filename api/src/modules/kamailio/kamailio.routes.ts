import { sipDomain, type PbxConfig } from '@tongdai/contracts';
import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { planCall, type CallInput, type LiveState } from '../routing';
import type { CallTracker } from '../cdr/call-tracker';
import type { Continuations } from '../media/continuation';
import { intOrNull } from './call-events';
import type { EvapiClient } from './evapi-client';
import { kamailioJson, toKamailioPlan, type KamailioPlan, type Trunks } from './kamailio-plan';
import type { Registrations } from './registrations';
import type { TenantLookup } from './tenant-lookup';

export interface KamailioRouteDeps {
  tracker: CallTracker;
  registrations: Registrations;
  tenants: TenantLookup;
  continuations: Continuations;
  /** Kamailio's event connection (null when KAMAILIO_EVAPI is unset). */
  events: EvapiClient | null;
  trunks: Trunks;
  /** Accept `at` (ISO time) on plan requests, to test time conditions. */
  testClock: boolean;
  config(tenantId: number, maDn: string): Promise<PbxConfig>;
  liveState(tenantId: number, domain: string, caller: string, config: PbxConfig): Promise<LiveState>;
  /** A REGISTER (or unregister, expires 0) Kamailio saved, for the live state (the wall). */
  onRegistration?(domain: string, extension: string, expires: number): void;
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
const RegistrationBody = v.object({
  user: v.pipe(v.string(), v.regex(/^[0-9]{2,6}$/)),
  domain: v.pipe(v.string(), v.maxLength(255)),
  expires: intOrNull,
});

const refuse = (code: number, reason: string): KamailioPlan => ({ domain: '', steps: [{ do: 'reject', code, reason, from_step: 0 }] });

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
  const { tracker, trunks } = d;

  /** A leg the media worker places with a continuation token: the plan prepared for it. */
  function continued(q: v.InferOutput<typeof RouteQuery>): KamailioPlan {
    const c = d.continuations.take(q.continue);
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
    const at = d.testClock && q.at && !Number.isNaN(Date.parse(q.at)) ? new Date(q.at) : new Date();
    const tenant = q.source === 'trunk' ? await d.tenants.ofDid(q.to) : await d.tenants.ofDomain(q.from_domain);
    // No tenant, no record: a carrier calling a number nobody owns, or a domain Kamailio should not have let in.
    if (!tenant) return q.source === 'trunk' ? refuse(404, 'Not Found') : refuse(403, 'Forbidden');
    const call: CallInput =
      q.source === 'trunk' ? { from: q.from, to: q.to, direction: 'inbound', at } : { from: q.from, to: q.to, direction: 'outbound', fromExtension: q.from, at };
    const config = await d.config(tenant.tenantId, tenant.maDn);
    const domain = sipDomain(tenant.maDn);
    const state = await d.liveState(tenant.tenantId, domain, q.from, config);
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
    d.registrations.report(r.output.domain, r.output.user, r.output.expires ?? 0);
    d.onRegistration?.(r.output.domain, r.output.user, r.output.expires ?? 0);
    return { ok: true };
  });

  app.get('/internal/sip/calls', async () => ({ events_connected: d.events?.connected ?? false, active: tracker.activeCount() }));

  app.get<{ Querystring: { domain?: string } }>('/internal/sip/registrations', async (request) => ({
    extensions: [...d.registrations.registered(String(request.query.domain ?? ''))].sort(),
  }));
}
