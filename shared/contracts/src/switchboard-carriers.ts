/**
 * The carriers a Vietnamese company buys hotlines from; `other` for a PBX or carrier not listed.
 * Its own file so that reports (which name a hotline's carrier) and telecom (whose call log is a
 * report query) need not import each other; telecom.ts re-exports it.
 */
export const SWITCHBOARD_CARRIERS = ['viettel', 'vnpt', 'mobifone', 'fpt', 'cmc', 'other'] as const;
export type SwitchboardCarrier = (typeof SWITCHBOARD_CARRIERS)[number];
