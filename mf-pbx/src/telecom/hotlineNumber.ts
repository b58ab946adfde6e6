import {
  HOTLINE_KIND_LABELS, SWITCHBOARD_CARRIER_NAMES, hotlineCarrier, hotlineKind, nationalForm, significantNumber,
  type HotlineKind, type SwitchboardCarrier,
} from '@tongdai/contracts';

/** What the create-hotline form says of a number as it is typed: its kind, and its carrier when the prefix tells it. */
export interface HotlineDetection {
  kind: HotlineKind;
  carrier: SwitchboardCarrier | null;
  /** "Di động · Viettel", "1900 (người gọi trả phí)". */
  label: string;
}

export function detectHotline(typed: string): HotlineDetection | null {
  const kind = hotlineKind(typed);
  if (kind === null) return null;
  const carrier = hotlineCarrier(typed);
  const label = carrier ? `${HOTLINE_KIND_LABELS[kind]} · ${SWITCHBOARD_CARRIER_NAMES[carrier]}` : HOTLINE_KIND_LABELS[kind];
  return { kind, carrier, label };
}

/**
 * A hotline as people read it: 1900 1234 / 1800 123 456, 0912 345 678, 028 3823 4567; a number
 * that is not Vietnamese comes back as it is.
 */
export function formatHotline(n: string): string {
  const nsn = significantNumber(n);
  if (nsn === null) return n;
  if (/^1[89]00/.test(nsn)) return nsn.length === 8 ? `${nsn.slice(0, 4)} ${nsn.slice(4)}` : `${nsn.slice(0, 4)} ${nsn.slice(4, 7)} ${nsn.slice(7)}`;
  const national = nationalForm(nsn);
  if (national.length === 11) return `${national.slice(0, 3)} ${national.slice(3, 7)} ${national.slice(7)}`;
  return `${national.slice(0, 4)} ${national.slice(4, 7)} ${national.slice(7)}`;
}
