import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CRM_CALL_CAUSES, CRM_CALL_LIMITS, CRM_CALL_STATUSES, CRM_PUBLIC_API, CrmCallStartSchema, type CrmCallRefusal, type CrmCallStartInput,
} from '@tongdai/contracts';
import { AppError } from '../../http/errors';
import { declareAccess } from '../../http/guards';
import { validate } from '../../http/validate';
import type { CallEventHub } from '../realtime/call-event-hub';
import { createVoiceOtpService } from '../voice-otp/voice-otp.service';
import { createCrmCallsService, type CrmCaller, type CrmCallsService, type CrmLive } from './crm-calls.service';

const str = { type: 'string' } as const;
const nullable = (t: string) => ({ type: [t, 'null'] });
const error = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    code: str,
    message: { type: 'string', description: 'Vietnamese, for people' },
    details: { type: 'array', items: { type: 'object', properties: { field: str, rule: str, message: str } } },
  },
};
const call = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'cause', 'agent', 'to', 'external_ref', 'created_at', 'ringing_agent_at', 'agent_answered_at', 'ringing_customer_at', 'answered_at', 'ended_at', 'duration_s', 'cdr_id', 'call_id'],
  properties: {
    id: str,
    status: { type: 'string', enum: [...CRM_CALL_STATUSES] },
    cause: { type: ['string', 'null'], enum: [...CRM_CALL_CAUSES, null] },
    agent: str,
    to: str,
    external_ref: nullable('string'),
    created_at: str,
    ringing_agent_at: nullable('string'),
    agent_answered_at: nullable('string'),
    ringing_customer_at: nullable('string'),
    answered_at: nullable('string'),
    ended_at: nullable('string'),
    duration_s: nullable('integer'),
    cdr_id: nullable('integer'),
    call_id: nullable('string'),
  },
};
const REFUSALS: CrmCallRefusal[] = ['unknown_agent', 'invalid_number', 'international', 'not_callable', 'blocked_out', 'premium', 'no_route'];
const DOCS = {
  start: {
    summary: "Click-to-call: ring the agent's phones, then call the customer and connect them",
    description: [
      "Body (JSON): `agent` (the agent's extension, e.g. \"101\"), `to` (the customer's phone: 0…, 84… or +84…; answered in 84… form), optional `external_ref` (the CRM's own id, up to 200 characters, echoed back).",
      "Every phone registered to the extension rings first (no voicemail, no forward), showing \"Gọi cho <number>\" and the number as the caller. When the agent answers, the customer is called out",
      "as if the agent had dialled from their extension — the outbound rules, the blocked-outgoing list, the rule's caller ID and switchboard — and the two are connected. The call's record is the agent's outbound call to the number.",
      `Answers 202 with the call (status queued); follow it with GET. Refusals: 422 CRM_CALL_REFUSED with details[0].rule one of ${REFUSALS.join(', ')};`,
      '409 CRM_AGENT_UNAVAILABLE (agent_not_registered: no phone registered to the extension; agent_busy: it is in a call, or a click-to-call of it is under way);',
      `429 CRM_RATE_LIMITED (key_minute_limit: ${CRM_CALL_LIMITS.perKeyMinute} calls a minute per key); 400 VALIDATION_FAILED; 401 without a valid key; 403 FORBIDDEN for a key without the calls.originate scope.`,
    ].join(' '),
    response: { 202: call, 409: error, 422: error, 429: error },
  },
  get: {
    summary: 'A click-to-call: its status, times and call record',
    description: [
      `status: ${CRM_CALL_STATUSES.join(' → ')} (or failed with cause: ${CRM_CALL_CAUSES.join(', ')}).`,
      'cdr_id is the call record\'s id once the call has ended and its record is written. Only calls asked for with the same key are found (404 otherwise). Scope calls.originate.',
    ].join(' '),
    response: { 200: call },
  },
};

const apiSchema = { tags: ['crm (applications)'], security: [{ apiKey: [] }] };
/** The key a request opened, per request (set by the guard, read by the handler). */
const callers = new WeakMap<FastifyRequest, CrmCaller>();

/** Who is registered and who is in a call now, from the live state every API instance reads (the wall's). */
export function liveOf(hub: Pick<CallEventHub, 'live'>): CrmLive {
  return {
    registered: (tenantId) => hub.live.registrations.registered(tenantId),
    async busy(tenantId) {
      const busy = new Set<string>();
      for (const c of await hub.live.calls(tenantId)) for (const ext of [c.caller_extension, c.extension, ...c.ringing]) if (ext) busy.add(ext);
      return busy;
    },
  };
}

/**
 * The CRMs' surface (/crm/v1, issue 39, ADR 0066): a tenant API key (voice-OTP's keys, ADR 0052) as the
 * bearer with the scope calls.originate opens it; none or a bad one 401, without the scope 403, another
 * key's call 404.
 */
export function crmCallsApiRoutes(svc?: CrmCallsService) {
  return async function crmCallsApi(app: FastifyInstance): Promise<void> {
    const keys = createVoiceOtpService(app.deps.db);
    const crm = svc ?? createCrmCallsService(app.deps.db);
    const live = liveOf(app.deps.hub);
    const originate = declareAccess({ auth: 'api-key' }, async function requireApiKey(request: FastifyRequest) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const caller = await keys.authenticate(bearer);
      if (!caller.scopes.includes('calls.originate')) throw new AppError('FORBIDDEN');
      callers.set(request, { tenantId: caller.tenantId, keyId: caller.keyId });
    });
    const caller = (request: FastifyRequest) => {
      const c = callers.get(request);
      if (!c) throw new AppError('UNAUTHORIZED');
      return c;
    };
    const base = `/${CRM_PUBLIC_API.calls}`;

    app.post(base, { preHandler: [originate, validate({ body: CrmCallStartSchema })], schema: { ...apiSchema, ...DOCS.start } }, async (request, reply) =>
      reply.status(202).send(await crm.start(caller(request), request.body as CrmCallStartInput, live)),
    );
    app.get(`${base}/:id`, { preHandler: originate, schema: { ...apiSchema, ...DOCS.get } }, (request) =>
      crm.get(caller(request), String((request.params as { id?: unknown }).id ?? '')),
    );
  };
}
