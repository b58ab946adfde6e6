import { type Carrier, type PhoneKind } from './phone';

/**
 * The carrier view (/reports/fpt/call-history, issue 13): calls through a hotline or trunk,
 * grouped by hotline, direction, carrier and destination type, with billed time by a per-carrier
 * rule. Until carriers are configurable (telecom issue) the rules are these defaults.
 */
export interface BillingRule {
  /** Seconds billed for any answered call up to this length. */
  first: number;
  /** Then billed in blocks of this many seconds, a started block counting whole. */
  block: number;
}

/** Mobile carriers bill 6 s + 1 s (the common Vietnamese block); anything else by whole minutes. */
export const DEFAULT_BILLING: Record<Carrier, BillingRule> = {
  viettel: { first: 6, block: 1 }, vinaphone: { first: 6, block: 1 }, mobifone: { first: 6, block: 1 }, vietnamobile: { first: 6, block: 1 },
  gmobile: { first: 6, block: 1 }, itel: { first: 6, block: 1 }, wintel: { first: 6, block: 1 }, other: { first: 60, block: 60 },
};

/** Billed seconds of one call of `billsec` talk seconds (0 for a call not answered). */
export function billedSeconds(billsec: number, rule: BillingRule): number {
  if (billsec <= 0) return 0;
  return billsec <= rule.first ? rule.first : rule.first + Math.ceil((billsec - rule.first) / rule.block) * rule.block;
}

export const DESTINATION_TYPES: Record<PhoneKind, string> = { mobile: 'Di động', landline: 'Cố định', service: 'Dịch vụ (1800/1900)', other: 'Khác' };

export interface CarrierReportRow {
  /** The hotline (DID) the call came in on or presented going out (the rule's caller id), else the trunk it went out through; '' when neither is known. */
  hotline: string;
  direction: 'inbound' | 'outbound';
  carrier: Carrier;
  destination: PhoneKind;
  calls: number;
  answered: number;
  /** Talk seconds, and the seconds billed by the carrier's rule. */
  billsec: number;
  billed_seconds: number;
}
