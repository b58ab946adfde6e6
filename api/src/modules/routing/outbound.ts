import { cleanNumber, type OutboundRule } from '@tongdai/contracts';
import { isBlocked, type ConfigIndex } from './config-index';
import { ROUTING_MSG } from './messages';
import { isInternational, isPremium, matchForm } from './numbers';
import type { ForwardStep, RejectStep, RouteNode } from './types';

export interface OutboundMatch {
  rule: OutboundRule;
  /** Number sent to the trunk: prepend + the dialled number minus `strip` leading digits. */
  number: string;
  callerId: string | null;
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
    return { rule, number: out, callerId: rule.caller_id || null };
  }
  if (intl) return reject(403, 'international');
  if (premium) return reject(403, 'premium');
  return reject(404, 'no_route');
}

export const forwardStep = (m: OutboundMatch, dialled: string, source: RouteNode): ForwardStep => ({
  kind: 'forward',
  number: m.number,
  dialled: cleanNumber(dialled),
  trunk: m.rule.trunk,
  callerId: m.callerId,
  ruleId: m.rule.id,
  source,
});
