import { cleanNumber, EXTENSION_PATTERN, groupMailbox, nationalForm, parseDestinationCode, parseGroupMailboxCode, VOICEMAIL_CODES, type PbxConfig } from '@tongdai/contracts';
import { isBlocked } from './config-index';
import { follow, newExpansion, reject, toPlan, type Expansion } from './expand';
import { extensionName } from './nodes';
import { matchForm } from './numbers';
import { forwardStep, matchOutbound, withCampaignCaller } from './outbound';
import { withRecording } from './recording';
import type { CallInput, LiveState, RoutingPlan } from './types';

/**
 * Inbound: blocked caller → 603; the DID's routes, most specific caller pattern first (the
 * empty pattern last) → the route's destination; no route → 404.
 */
function inbound(x: Expansion, fromExtension = false): void {
  const { call, idx } = x;
  if (!fromExtension && isBlocked(idx, 'in', call.from)) return reject(x, 603, 'blocked_in');
  const did = nationalForm(call.to);
  const number = idx.numbers.get(did);
  if (number && number.active === false) return reject(x, 404, 'did_inactive');
  const chosen = idx.inbound.get(did)?.find((c) => !c.pattern || matchForm(c.pattern, call.from) !== null);
  if (!chosen) return reject(x, 404, 'unknown_did');
  const r = chosen.route;
  x.route.push({ type: 'inbound', id: String(r.id), name: r.caller_pattern ? `${r.did} / ${r.caller_pattern}` : r.did });
  follow(x, r.destination);
}

/** Outbound: the number an extension dialled goes out through the first rule that matches and allows it. */
function outbound(x: Expansion): void {
  const matched = matchOutbound(x.idx, x.call.to);
  if ('kind' in matched) {
    // A short number no rule takes was meant as an extension that does not exist.
    const to = cleanNumber(x.call.to);
    if (matched.reason === 'no_route' && EXTENSION_PATTERN.test(to)) reject(x, 404, 'unknown_extension', to);
    else x.steps.push(matched);
    return;
  }
  // A campaign's allowed call goes out with its hotline as caller ID (ADR 0050 slice 3).
  const m = withCampaignCaller(x.idx, matched, x.state.campaignCaller);
  const source = { type: 'outbound' as const, id: String(m.rule.id), name: m.rule.name };
  x.route.push(source);
  x.steps.push(forwardStep(m, x.call.to, source));
}

/**
 * The routing plan of a new call. A call placed by an extension (internal or outbound) to one of
 * the tenant's extensions is internal, to anything else outbound; inbound calls arrive on a DID.
 * Never throws on configuration problems: they end the plan with a reject step.
 */
export function planCall(config: PbxConfig, call: CallInput, state: LiveState): RoutingPlan {
  return withRecording(config, routeCall(config, call, state), call.fromExtension ?? (call.direction === 'inbound' ? undefined : call.from));
}

/**
 * The plan of a call the media worker places itself (a dialer's or voice-OTP's contact leg): the worker already
 * stands in it, so no bridge step is put in front for recording, supervision or CSAT (ADR 0041: the worker records
 * such a call when it bridges it).
 */
export function planPlacedCall(config: PbxConfig, call: CallInput, state: LiveState): RoutingPlan {
  return routeCall(config, call, state);
}

function routeCall(config: PbxConfig, call: CallInput, state: LiveState): RoutingPlan {
  const x = newExpansion(config, call, state);
  if (call.direction === 'inbound') {
    inbound(x);
    return toPlan(x, 'inbound');
  }
  const to = cleanNumber(call.to);
  const caller = call.fromExtension ?? call.from;
  const fromExtension = () => {
    if (x.idx.extensions.has(caller)) x.route.push({ type: 'extension', id: caller, name: extensionName(x.idx, caller) });
  };
  if (x.idx.extensions.has(to)) {
    fromExtension();
    follow(x, { type: 'direct', target: to });
    return toPlan(x, 'internal');
  }
  // *97: the caller's own mailbox; *98: another one, asked for by the menu (issue 16).
  if (to === VOICEMAIL_CODES.own || to === VOICEMAIL_CODES.other) {
    const own = to === VOICEMAIL_CODES.own;
    if (own && !x.idx.extensions.has(caller)) {
      reject(x, 404, 'unknown_extension', caller);
      return toPlan(x, 'internal');
    }
    const source = { type: 'extension' as const, id: own ? caller : '', name: own ? `Hộp thư thoại ${caller}` : 'Hộp thư thoại' };
    x.route.push(source);
    x.steps.push({ kind: 'mailbox', mailbox: own ? caller : null, source });
    return toPlan(x, 'internal');
  }
  // *96<id>: a ring group's shared mailbox, opened by the API for the group's members only.
  const group = parseGroupMailboxCode(to);
  if (group !== null) {
    if (!x.idx.extensions.has(caller)) {
      reject(x, 404, 'unknown_extension', caller);
      return toPlan(x, 'internal');
    }
    const source = { type: 'extension' as const, id: '', name: 'Hộp thư nhóm' };
    x.route.push(source);
    x.steps.push({ kind: 'mailbox', mailbox: groupMailbox(group), source });
    return toPlan(x, 'internal');
  }
  // *41<id> / *42<id>: one of the tenant's queues / IVRs, as an inbound route to it would go (issue 16).
  const code = parseDestinationCode(to);
  if (code) {
    fromExtension();
    follow(x, { type: code.type, target: String(code.id) });
    return toPlan(x, 'internal');
  }
  // One of the tenant's own numbers (a DID or hotline, written 028…, 8428… or +8428…): its inbound
  // route, internally, without a carrier.
  if (to && x.idx.numbers.has(nationalForm(to))) {
    fromExtension();
    inbound(x, true);
    return toPlan(x, 'internal');
  }
  outbound(x);
  return toPlan(x, 'outbound');
}
