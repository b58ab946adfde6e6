import { DEFAULT_TIMEZONE, TIME_OVERRIDE_LABELS, type TimeCondition } from '@tongdai/contracts';

/** Zones a Vietnamese call centre meets (its own, the region's, its customers'); others stay selectable when saved. */
const ZONES: [string, string][] = [
  [DEFAULT_TIMEZONE, 'Việt Nam'],
  ['Asia/Bangkok', 'Thái Lan, Lào, Campuchia'],
  ['Asia/Jakarta', 'Indonesia (Jakarta)'],
  ['Asia/Singapore', 'Singapore'],
  ['Asia/Kuala_Lumpur', 'Malaysia'],
  ['Asia/Manila', 'Philippines'],
  ['Asia/Shanghai', 'Trung Quốc'],
  ['Asia/Hong_Kong', 'Hồng Kông'],
  ['Asia/Taipei', 'Đài Loan'],
  ['Asia/Seoul', 'Hàn Quốc'],
  ['Asia/Tokyo', 'Nhật Bản'],
  ['Asia/Kolkata', 'Ấn Độ'],
  ['Asia/Dubai', 'UAE'],
  ['Australia/Sydney', 'Úc (Sydney)'],
  ['Europe/London', 'Anh'],
  ['Europe/Paris', 'Pháp'],
  ['Europe/Berlin', 'Đức'],
  ['America/New_York', 'Mỹ (New York)'],
  ['America/Los_Angeles', 'Mỹ (Los Angeles)'],
  ['UTC', 'UTC'],
];

/** "UTC+07:00" for a zone at a given instant (daylight saving included). */
export function utcOffset(zone: string, at = new Date()): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return name === 'GMT' ? 'UTC+00:00' : name.replace('GMT', 'UTC');
}

/** Select options, "Việt Nam — Asia/Ho_Chi_Minh (UTC+07:00)"; a saved zone outside the list is kept first. */
export function timezoneOptions(current?: string): { value: string; label: string }[] {
  const zones = current && !ZONES.some(([z]) => z === current) ? [[current, current] as [string, string], ...ZONES] : ZONES;
  return zones.map(([value, name]) => ({ value, label: `${name === value ? value : `${name} — ${value}`} (${utcOffset(value)})` }));
}

const untilFormat = (zone: string) =>
  new Intl.DateTimeFormat('vi-VN', { timeZone: zone, hour: '2-digit', minute: '2-digit', day: '2-digit', month: '2-digit', year: 'numeric', hourCycle: 'h23' });

/** "đến 17:30 22/11/2026", in the condition's own zone. */
export function formatUntil(iso: string, zone: string): string {
  const parts = Object.fromEntries(untilFormat(zone).formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `đến ${parts.hour}:${parts.minute} ${parts.day}/${parts.month}/${parts.year}`;
}

const isTemporary = (o: TimeCondition['override']) => o === 'temp_matched' || o === 'temp_unmatched';

/**
 * The manual override as the list shows it: "Theo lịch", "Luôn trong giờ", or for a temporary one
 * "Tạm thời: trong giờ đến 17:30 22/11/2026" (its end is the next change of state of the group).
 */
export function describeOverride(c: Pick<TimeCondition, 'override' | 'override_until' | 'timezone'>): string {
  const label = TIME_OVERRIDE_LABELS[c.override];
  if (!isTemporary(c.override) || !c.override_until) return label;
  return `${label.replace(/ \(.*\)$/, '')} ${formatUntil(c.override_until, c.timezone || DEFAULT_TIMEZONE)}`;
}
