import type { PlanStep, RoutingPlan } from '../routing';

/**
 * The routing engine's plan in the shape sip/kamailio.cfg executes (one JSON line, read with
 * jansson_get): a list of steps tried in order, each a fork, a trunk call or a final answer.
 * A step that ends without an answer (408/480/486/487 not cancelled by the caller/603…) hands the
 * call to the next one; reject and hangup end the call.
 */
export type KamailioStep =
  /** Fork to every registered contact of these extensions at once, for `timeout` seconds. */
  | { do: 'ring'; targets: string[]; timeout: number; from_step: number }
  /** Relay to an external number through a trunk; `from` is the caller number to present ('' = unchanged). */
  | { do: 'forward'; uri: string; from: string; timeout: number; trunk: string; from_step: number }
  /** `cause`: why, for the caller's phone (Kamailio sends it as X-Tongdai-Cause; contracts/call-failures). */
  | { do: 'reject'; code: number; reason: string; cause?: string; from_step: number }
  /** Hand the call to a media worker (Kamailio's dispatcher set 1) with this step's index (X-Tongdai-Step). */
  | { do: 'media'; from_step: number }
  /** Nothing more to try: the caller gets the best answer seen so far (480 if nothing rang). */
  | { do: 'hangup'; from_step: number };

export interface KamailioPlan {
  /** SIP domain of the tenant: ring targets are sip:<extension>@<domain> in usrloc. */
  domain: string;
  steps: KamailioStep[];
}

/** Trunk name (outbound rule) → host[:port] of the carrier's SIP server. */
export type Trunks = Readonly<Record<string, string>>;

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

/** "key=value,key=value" (SIP_TRUNKS) → Trunks; blank or malformed entries are ignored. */
export function parseTrunks(spec: string | undefined): Trunks {
  const out: Record<string, string> = {};
  for (const part of (spec ?? '').split(',')) {
    const [name, host] = part.split('=').map((s) => s.trim());
    if (name && host && /^[a-zA-Z0-9_.-]+$/.test(name) && /^[a-zA-Z0-9.-]+(:\d{1,5})?$/.test(host)) out[name] = host;
  }
  return out;
}

function stepsOf(step: PlanStep, index: number, trunks: Trunks): KamailioStep[] {
  switch (step.kind) {
    case 'ring':
      if (step.mode === 'parallel') return [{ do: 'ring', targets: step.targets.map((t) => t.extension), timeout: step.timeout, from_step: index }];
      // Serial: each target is its own fork of one, so a busy or silent extension passes to the next.
      return step.targets.map((t) => ({ do: 'ring' as const, targets: [t.extension], timeout: t.timeout, from_step: index }));
    case 'forward': {
      const host = trunks[step.trunk];
      if (!host) return [{ do: 'reject', code: 503, reason: 'Trunk not configured', cause: 'trunk_not_configured', from_step: index }];
      return [{ do: 'forward', uri: `sip:${step.number}@${host}`, from: step.callerId ?? '', timeout: FORWARD_RING_SECONDS, trunk: step.trunk, from_step: index }];
    }
    case 'reject':
      return [{ do: 'reject', code: step.code, reason: REASON_PHRASES[step.code] ?? 'Rejected', cause: step.reason, from_step: index }];
    case 'hangup':
      return [{ do: 'hangup', from_step: index }];
    default:
      // play, ivr, queue, voicemail: the media worker's part.
      return [{ do: 'media', from_step: index }];
  }
}

const TERMINAL = new Set<KamailioStep['do']>(['reject', 'hangup']);

/** Flattens the plan; nothing after the first final answer is kept (it could never run). */
export function toKamailioPlan(plan: RoutingPlan, domain: string, trunks: Trunks): KamailioPlan {
  const steps: KamailioStep[] = [];
  for (let i = 0; i < plan.steps.length; i++) {
    for (const s of stepsOf(plan.steps[i], i, trunks)) {
      steps.push(s);
      if (TERMINAL.has(s.do)) return { domain, steps };
    }
  }
  if (!steps.length || !TERMINAL.has(steps[steps.length - 1].do)) steps.push({ do: 'hangup', from_step: plan.steps.length });
  return { domain, steps };
}

/** What Kamailio reads: one JSON line, without the fields only the API uses (its copy keeps them). */
export const kamailioJson = (plan: KamailioPlan): string => `${JSON.stringify(plan, (key, value) => (key === 'from_step' || key === 'trunk' ? undefined : value))}\n`;
