import { carrierOf, cleanNumber, hotlineCarrier, nationalForm, SWITCHBOARD_CARRIER_OF_NETWORK, type OutboundRule } from '@tongdai/contracts';
import { isBlocked, type ConfigIndex } from './config-index';
import { ROUTING_MSG } from './messages';
import { isInternational, isPremium, matchForm } from './numbers';
import type { CampaignCaller, ForwardStep, RejectStep, RouteNode } from './types';

export interface OutboundMatch {
  rule: OutboundRule;
  /** Number sent to the trunk: prepend + the dialled number minus `strip` leading digits. */
  number: string;
  callerId: string | null;
  /** The rule's switchboards to try, in order (disabled ones left out). */
  switchboards: number[];
}

const reject = (code: RejectStep['code'], reason: 'blocked_out' | 'international' | 'premium' | 'no_route'): RejectStep => ({ kind: 'reject', code, reason, message: ROUTING_MSG[reason]() });

/**
 * Picks the outbound rule for a number an extension dialled (or an fw destination): rules in
 * priority order, the first whose dial pattern matches and that allows the number's class
 * (international +/00 except +84, premium 1900) carries it. Blocked numbers and numbers of a
 * class no rule allows are refused with 403; no matching rule at all is 404.
 */
export function matchOutbound(idx: ConfigIndex, dialled: string): OutboundMatch | RejectStep {
  const number = cleanNumber(dialled);
  if (!number) return reject(404, 'no_route');
  if (isBlocked(idx, 'out', number)) return reject(403, 'blocked_out');
  const intl = isInternational(number);
  const premium = isPremium(number);
  for (const { rule, pattern } of idx.outbound) {
    if ((intl && !rule.allow_international) || (premium && !rule.allow_premium)) continue;
    const form = matchForm(pattern, number);
    if (form === null) continue;
    const out = (rule.prepend ?? '') + form.slice(Math.min(rule.strip ?? 0, form.length));
    if (isBlocked(idx, 'out', out)) return reject(403, 'blocked_out');
    return { rule, number: out, callerId: callerIdOf(idx, rule, number), switchboards: switchboardsOf(idx, rule) };
  }
  if (intl) return reject(403, 'international');
  if (premium) return reject(403, 'premium');
  return reject(404, 'no_route');
}

/**
 * The caller id a rule presents: `fixed` → its caller_id; `carrier` → a hotline of the tenant on
 * the callee's carrier (a mobile hotline's carrier is its prefix's, any other the switchboard's),
 * those on the rule's own switchboards first, else the rule's caller_id. Hotlines in national form.
 */
function callerIdOf(idx: ConfigIndex, rule: OutboundRule, callee: string): string | null {
  const fallback = rule.caller_id || null;
  if (rule.caller_id_mode !== 'carrier') return fallback;
  const carrier = SWITCHBOARD_CARRIER_OF_NETWORK[carrierOf(callee)];
  if (!carrier) return fallback;
  const own = new Set(rule.switchboard_ids);
  const boards = [...(rule.switchboard_ids).flatMap((id) => idx.switchboards.get(id) ?? []), ...[...idx.switchboards.values()].filter((s) => !own.has(s.id))];
  for (const board of boards) {
    const hotline = board.hotlines.find((h) => (hotlineCarrier(h) ?? board.carrier) === carrier);
    if (hotline) return nationalForm(hotline);
  }
  return fallback;
}

/**
 * A campaign call (ADR 0050 slice 3; Decree 91: an advertising call shows the identity registered for
 * it): the campaign's hotline is the caller ID whatever the rule's mode, and the switchboard that
 * carries that hotline is tried first (a carrier refuses a caller ID that is not its own), when it is
 * on and the rule's dial pattern already allowed the number. Anything else: the match unchanged.
 */
export function withCampaignCaller(idx: ConfigIndex, m: OutboundMatch, campaign: CampaignCaller | null | undefined): OutboundMatch {
  if (!campaign) return m;
  const hotline = nationalForm(campaign.hotline);
  const board = [...idx.switchboards.values()].find((s) => s.hotlines.some((h) => nationalForm(h) === hotline));
  const usable = board && (!idx.switchboardsKnown || board.enabled);
  return { ...m, callerId: hotline, switchboards: usable ? [board.id, ...m.switchboards.filter((id) => id !== board.id)] : m.switchboards };
}

/** The rule's switchboards in its order; a switchboard turned off is skipped (unknown ones too, once the configuration lists them). */
function switchboardsOf(idx: ConfigIndex, rule: OutboundRule): number[] {
  const ids = rule.switchboard_ids;
  if (!idx.switchboardsKnown) return [...ids];
  return ids.filter((id) => idx.switchboards.get(id)?.enabled);
}

export const forwardStep = (m: OutboundMatch, dialled: string, source: RouteNode): ForwardStep => ({
  kind: 'forward',
  number: m.number,
  dialled: cleanNumber(dialled),
  trunk: m.rule.trunk ?? '',
  switchboards: m.switchboards,
  callerId: m.callerId,
  ruleId: m.rule.id,
  source,
});
