import { ADVERTISING_CAP_HOURS, ADVERTISING_WINDOW, DECREE91_MESSAGES, vnTime, type CampaignKind, type Decree91Decision, type Decree91Refusal, type DncSource } from '@tongdai/contracts';

/**
 * Decree 91/2020/ND-CP art. 13 as a pure function of what is known about one call (ADR 0049): no
 * clock, no database, so every edge is tested with dates built in UTC. The caller reads the facts
 * (decree91.repository) and, for an allowed advertising call, claims the cap atomically.
 */

export interface DncEntry {
  source: DncSource;
  created_at: Date;
}

/** The agreement in force with the subscriber (the latest recorded consent of the number). */
export interface Consent {
  agreed_at: Date;
  lifts_window: boolean;
  lifts_cap: boolean;
  overrides_dnc: boolean;
}

export interface Decree91Facts {
  kind: CampaignKind;
  /** When the call is placed (the server clock). */
  at: Date;
  dnc: readonly DncEntry[];
  consent: Consent | null;
  /** The tenant's last advertising call to the number, any campaign. */
  lastAdvertisingCallAt: Date | null;
  /** The caller-ID hotline is registered as a "tên định danh" for advertising. */
  advertisingIdentity: boolean;
}

const CAP_MS = ADVERTISING_CAP_HOURS * 3_600_000;

export const refuse = (reason: Decree91Refusal): Decree91Decision => ({ allowed: false, reason, message: DECREE91_MESSAGES[reason] });

/** The subscriber's consent lifts a DNC entry only when it says so and was given after the number was listed. */
const listed = (e: DncEntry, consent: Consent | null): boolean =>
  !(consent?.overrides_dnc && consent.agreed_at.getTime() > e.created_at.getTime());

/** 08:00:00 ≤ Vietnam time < 17:00:00 (Asia/Ho_Chi_Minh is UTC+7 all year, whatever the machine's zone). */
export const inAdvertisingWindow = (at: Date): boolean => {
  const hms = vnTime(at.toISOString());
  return hms >= ADVERTISING_WINDOW.start && hms < ADVERTISING_WINDOW.end;
};

/**
 * Whether the call may be placed. The tenant's own list binds every campaign kind; the national
 * list is a do-not-ADVERTISE list; the window, the rolling 24-hour cap and the registered identity
 * bind advertising only. The number's refusals come first (they hold whatever the campaign does).
 */
export function decree91(f: Decree91Facts): Decree91Decision {
  const dnc = f.dnc.filter((e) => listed(e, f.consent));
  if (dnc.some((e) => e.source === 'tenant')) return refuse('tenant_dnc');
  if (f.kind !== 'advertising') return { allowed: true, capLifted: false };
  if (dnc.some((e) => e.source === 'national')) return refuse('national_dnc');
  if (!f.advertisingIdentity) return refuse('no_identity');
  if (!f.consent?.lifts_window && !inAdvertisingWindow(f.at)) return refuse('outside_window');
  const capLifted = f.consent?.lifts_cap === true;
  if (!capLifted && f.lastAdvertisingCallAt && f.at.getTime() - f.lastAdvertisingCallAt.getTime() < CAP_MS) return refuse('rolling_cap');
  return { allowed: true, capLifted };
}
