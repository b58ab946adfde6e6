import { callerIdForm, callViaOf, formatCallVia } from '@tongdai/contracts';
import type { ForwardStep, PlanStep, RoutingPlan } from '../routing';
import { hostPort, type CallSwitchboard } from '../trunks/trunks.service';

/**
 * The routing engine's plan in the shape sip/kamailio.cfg executes (one JSON line, read with
 * jansson_get): a list of steps tried in order, each a fork, a call through a carrier's
 * switchboard or a final answer (docs/adr/0011, 0036).
 * A step that ends without an answer (408/480/486/487 not cancelled by the caller/603…) hands the
 * call to the next one; reject and hangup end the call.
 */
export type KamailioStep =
  /**
   * Fork to every registered contact of these extensions at once, for `timeout` seconds. `via`: the
   * hotline and group/queue the call came through, which Kamailio sends the phones as X-Tongdai-Via
   * (contracts call-via; absent when there is nothing to say).
   */
  | { do: 'ring'; targets: string[]; timeout: number; via?: string; from_step: number }
  /**
   * Relay to an external number through switchboard `sb` (its name in `trunk`, for the record); `from`
   * is the hotline presented in From and P-Asserted-Identity, in the switchboard's caller ID format
   * ('' = unchanged). `sb_max`: the
   * switchboard's channels; `dst`: where the request goes (the address the host policy judged, so
   * Kamailio never resolves a name itself, ADR 0043); `alt`: how many following steps are the same number on the next
   * switchboards (skipped when the callee, not the trunk, said no: 486/404/603).
   */
  | { do: 'forward'; uri: string; dst: string; from: string; timeout: number; trunk: string; sb: number; sb_max: number; alt: number; from_step: number }
  /** `cause`: why, for the caller's phone (Kamailio sends it as X-Tongdai-Cause; contracts/call-failures). */
  | { do: 'reject'; code: number; reason: string; cause?: string; from_step: number }
  /**
   * Hand the call to a media worker (Kamailio's dispatcher set 1) with this step's index
   * (X-Tongdai-Step); `worker` ("sip:host:port"): that worker and no other (a supervisor joining
   * the call it holds, ADR 0042).
   */
  | { do: 'media'; from_step: number; worker?: string }
  /** Nothing more to try: the caller gets the best answer seen so far (480 if nothing rang). */
  | { do: 'hangup'; from_step: number };

export interface KamailioPlan {
  /** SIP domain of the tenant: ring targets are sip:<extension>@<domain> in usrloc. */
  domain: string;
  steps: KamailioStep[];
  /** The tenant and its channel limit over all its switchboards (Kamailio's dialog profile "tenant"). */
  tenant?: number;
  tenant_max?: number;
  /** A carrier's call: the switchboard it came from and that switchboard's channels (profile "sb"). */
  inbound_sb?: number;
  inbound_max?: number;
}

/** What the plan needs of the tenant's switchboards (trunks module, ADR 0036). */
export interface PlanTrunks {
  switchboards?: readonly CallSwitchboard[];
  /** An outbound rule's switchboards, in order, when the engine did not copy them onto the step. */
  ruleSwitchboards?(ruleId: number): readonly number[];
}

/** Seconds an external number rings before the next step (a carrier usually gives up first). */
export const FORWARD_RING_SECONDS = 60;

/** What Kamailio answers a media step when no worker is up (dispatcher set empty or all down). */
export const MEDIA_UNAVAILABLE = { code: 480, reason: 'Media service unavailable' } as const;

const REASON_PHRASES: Record<number, string> = {
  403: 'Forbidden',
  404: 'Not Found',
  480: 'Temporarily Unavailable',
  482: 'Loop Detected',
  486: 'Busy Here',
  503: 'Service Unavailable',
  603: 'Decline',
};

/**
 * One forward step per enabled switchboard of the rule, in the rule's order (failover). A rule
 * without switchboards (a legacy free-text trunk) cannot place calls: trunk_not_configured. A
 * switchboard without an address the host policy allows (blocked, or a name with no answer) is
 * left out like a disabled one.
 */
function forwardSteps(step: ForwardStep, index: number, trunks: PlanTrunks): KamailioStep[] {
  const ids = step.switchboards ?? trunks.ruleSwitchboards?.(step.ruleId) ?? [];
  const usable = ids.map((id) => trunks.switchboards?.find((s) => s.id === id)).filter((s): s is CallSwitchboard & { address: string } => !!s?.enabled && !!s.address);
  if (!usable.length) return [{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured', from_step: index }];
  return usable.map((s, i) => ({
    do: 'forward' as const,
    uri: `sip:${step.number}@${hostPort(s.host, s.port)}${s.transport === 'tcp' ? ';transport=tcp' : ''}`,
    dst: `sip:${hostPort(s.address, s.port)}${s.transport === 'tcp' ? ';transport=tcp' : ''}`,
    from: step.callerId ? callerIdForm(step.callerId, s.callerIdFormat) : '',
    timeout: FORWARD_RING_SECONDS,
    trunk: s.name,
    sb: s.id,
    sb_max: s.maxChannels,
    alt: usable.length - 1 - i,
    from_step: index,
  }));
}

function stepsOf(plan: RoutingPlan, step: PlanStep, index: number, trunks: PlanTrunks): KamailioStep[] {
  switch (step.kind) {
    case 'ring': {
      const via = formatCallVia(callViaOf(plan.did, step.source));
      const said = via ? { via } : {};
      if (step.mode === 'parallel') return [{ do: 'ring', targets: step.targets.map((t) => t.extension), timeout: step.timeout, ...said, from_step: index }];
      // Serial: each target is its own fork of one, so a busy or silent extension passes to the next.
      return step.targets.map((t) => ({ do: 'ring' as const, targets: [t.extension], timeout: t.timeout, ...said, from_step: index }));
    }
    case 'forward':
      return forwardSteps(step, index, trunks);
    case 'reject':
      return [{ do: 'reject', code: step.code, reason: REASON_PHRASES[step.code] ?? 'Rejected', cause: step.reason, from_step: index }];
    case 'hangup':
      return [{ do: 'hangup', from_step: index }];
    case 'spy':
      return [{ do: 'media', from_step: index, worker: `sip:${step.worker}` }];
    default:
      // play, ivr, queue, voicemail: the media worker's part.
      return [{ do: 'media', from_step: index }];
  }
}

const TERMINAL = new Set<KamailioStep['do']>(['reject', 'hangup']);

/** Flattens the plan; nothing after the first final answer is kept (it could never run). */
export function toKamailioPlan(plan: RoutingPlan, domain: string, trunks: PlanTrunks = {}): KamailioPlan {
  const steps: KamailioStep[] = [];
  for (let i = 0; i < plan.steps.length; i++) {
    // A recorded call (issue 16): the worker dials the rest of the plan itself and answers the
    // caller with its outcome, so nothing follows the bridge here (Kamailio must not ring the
    // parties again, unrecorded, after the worker said busy or no answer).
    if (plan.steps[i].kind === 'bridge') {
      steps.push({ do: 'media', from_step: i }, { do: 'hangup', from_step: i + 1 });
      return { domain, steps };
    }
    for (const s of stepsOf(plan, plan.steps[i], i, trunks)) {
      steps.push(s);
      if (TERMINAL.has(s.do)) return { domain, steps };
    }
  }
  if (!steps.length || !TERMINAL.has(steps[steps.length - 1].do)) steps.push({ do: 'hangup', from_step: plan.steps.length });
  return { domain, steps };
}

/** What Kamailio reads: one JSON line, without the fields only the API uses (its copy keeps them). */
export const kamailioJson = (plan: KamailioPlan & { j?: string }): string => `${JSON.stringify(plan, (key, value) => (key === 'from_step' || key === 'trunk' ? undefined : value))}\n`;

/**
 * The most Kamailio can read of one answer: it prints every function parameter with a variable in
 * it into a buffer of `pv_buffer_size` (sip/kamailio.cfg, 65536 bytes) — the plan for jansson_get,
 * and the outbox's start event carrying the call's state — and cannot read what does not fit (every
 * call to a 40-agent group got 480 at the old 8 KB). Some room kept for the event's other fields.
 */
export const KAMAILIO_READABLE_BYTES = 65_536 - 1_024;

/**
 * The plan as Kamailio gets it, with the call's state for its outbox (`j`, ADR 0046) when both fit
 * what Kamailio can read. Too big with it (a memory-hunt group of some hundred agents lists them
 * quadratically, and the state holds the plan again): sent without it — the journal keeps the call
 * 20 ms later; only an API that dies within those loses it. Too big even alone: a refusal (503),
 * never a plan Kamailio would fail to read and answer 480 to as if nobody could take the call.
 */
export function planForKamailio(plan: KamailioPlan, j: string | undefined): { body: string; bytes: number; left?: 'state' | 'plan' } {
  // One serialisation on the plan's hot path (every call): the plan alone is written only when the
  // answer with the state does not fit.
  if (j) {
    const whole = kamailioJson({ ...plan, j });
    const wholeBytes = Buffer.byteLength(whole);
    // The start event carries the state quoted as it is inside `whole`: when `whole` fits, so does it.
    if (wholeBytes <= KAMAILIO_READABLE_BYTES) return { body: whole, bytes: wholeBytes };
  }
  const plain = kamailioJson(plan);
  const bytes = Buffer.byteLength(plain);
  if (bytes <= KAMAILIO_READABLE_BYTES) return j ? { body: plain, bytes, left: 'state' } : { body: plain, bytes };
  const refused: KamailioPlan = { domain: plan.domain, steps: [{ do: 'reject', code: 503, reason: 'Routing Plan Too Large', cause: 'plan_too_large', from_step: 0 }] };
  return { body: kamailioJson(refused), bytes, left: 'plan' };
}
