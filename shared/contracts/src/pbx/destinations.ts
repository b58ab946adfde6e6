import * as v from 'valibot';
import { DESTINATION_VALUES, type DestinationValue } from '../constants';
import { EXTENSION_PATTERN } from '../subscribers';
import { PBX_MSG } from './messages';

// ---------------------------------------------------------------------------------------------
// Destinations (SPEC §9 option values, spelled exactly, typos included)
// ---------------------------------------------------------------------------------------------

/** Vietnamese label of each destination type; the filter adds "Tất cả" with the empty value. */
export const DESTINATION_LABELS: Record<DestinationValue, string> = {
  ivr: 'IVR',
  direct: 'Máy nhánh',
  group: 'Nhóm đổ chuông',
  fw: 'Chuyển tiếp số ngoài',
  msg: 'Thông báo',
  time: 'Điều kiện thời gian',
  voicmail: 'Hộp thư thoại máy nhánh',
  queue: 'Hàng đợi',
  lastcall: 'Gọi lại người nghe gần nhất',
  voicemaill: 'Hộp thư thoại nhóm',
};
export const DESTINATION_FILTER_OPTIONS: { value: string; label: string }[] = [
  { value: '', label: 'Tất cả' },
  ...DESTINATION_VALUES.map((value) => ({ value, label: DESTINATION_LABELS[value] })),
];

/**
 * What each type's target is:
 * ivr → IVR id, direct → extension, group → ring group id, fw → external number, msg → notification id,
 * time → time condition id, voicmail → extension (its mailbox), queue → queue id,
 * lastcall → last-call rule id, voicemaill → ring group id (the group's shared mailbox).
 */
export interface Destination {
  type: DestinationValue;
  target: string;
}
/** Types whose target is the id of a row (the rest name an extension or an external number). */
export const DESTINATION_ID_TYPES: readonly DestinationValue[] = ['ivr', 'group', 'msg', 'time', 'queue', 'lastcall', 'voicemaill'];

/** Dialled/DID numbers: 3–15 digits, optional leading +. */
export const PBX_NUMBER_PATTERN = /^\+?\d{3,15}$/;

export const DestinationSchema = v.pipe(
  v.object({
    type: v.picklist(DESTINATION_VALUES, PBX_MSG.destinationType),
    target: v.pipe(v.union([v.string(), v.number()], PBX_MSG.destinationTarget), v.transform(String), v.trim(), v.nonEmpty(PBX_MSG.destinationTarget)),
  }, PBX_MSG.destinationType),
  v.check((d) => {
    if (d.type === 'fw') return PBX_NUMBER_PATTERN.test(d.target);
    if (d.type === 'direct' || d.type === 'voicmail') return EXTENSION_PATTERN.test(d.target);
    return /^\d{1,9}$/.test(d.target);
  }, PBX_MSG.destinationTarget),
);
/** A destination that may be absent (null = hang up). */
export const OptionalDestinationSchema = v.optional(v.nullable(DestinationSchema), null);

/** The select value of a destination in forms: "type:target". */
export const encodeDestination = (d: Destination | null | undefined): string => (d ? `${d.type}:${d.target}` : '');
export function decodeDestination(value: string): Destination | null {
  const i = value.indexOf(':');
  if (i <= 0) return null;
  const type = value.slice(0, i) as DestinationValue;
  if (!DESTINATION_VALUES.includes(type)) return null;
  return { type, target: value.slice(i + 1) };
}

/**
 * GET /partner/destinations?CodeCompany=ma_dn (SPEC §7): a nested map type → { target → display name }.
 * fw has no entries (the number is typed).
 */
export type DestinationsMap = Partial<Record<DestinationValue, Record<string, string>>>;
export interface DestinationOption {
  name: string;
  value: string;
  type: DestinationValue;
}
/** Turns the nested map into name/value pairs (value = encodeDestination), in SPEC order then by name. */
export function destinationOptions(map: DestinationsMap): DestinationOption[] {
  const out: DestinationOption[] = [];
  for (const type of DESTINATION_VALUES) {
    const entries = Object.entries(map[type] ?? {}).sort((a, b) => a[1].localeCompare(b[1], 'vi'));
    for (const [target, label] of entries) out.push({ type, value: `${type}:${target}`, name: `${DESTINATION_LABELS[type]}: ${label}` });
  }
  return out;
}
