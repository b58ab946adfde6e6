/**
 * Decree 91/2020/ND-CP (anti-spam calls), art. 13, as Tongdai enforces it on campaign calls
 * (issue 33, ADR 0049): the campaign kinds, the do-not-call sources, and why a call was refused —
 * a stable reason code (what results count and tests assert) and the sentence the agent reads.
 */
import { MSG } from './messages';

/** Advertising ("quảng cáo") is what the decree restricts; care and transactional calls are not advertising. */
export const CAMPAIGN_KINDS = ['advertising', 'care', 'transactional'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];
export const CAMPAIGN_KIND_LABELS: Record<CampaignKind, string> = {
  advertising: 'Quảng cáo',
  care: 'Chăm sóc khách hàng',
  transactional: 'Giao dịch',
};

/** The tenant's own do-not-call list, and the national "Danh sách không quảng cáo" imported as a file. */
export const DNC_SOURCES = ['tenant', 'national'] as const;
export type DncSource = (typeof DNC_SOURCES)[number];

/** Advertising calls start from 08:00:00 up to 16:59:59, Asia/Ho_Chi_Minh ([start, end) as HH:mm:ss). */
export const ADVERTISING_WINDOW = { start: '08:00:00', end: '17:00:00' } as const;
/** At most one advertising call to a number within any rolling 24 hours, per tenant. */
export const ADVERTISING_CAP_HOURS = 24;

export const DECREE91_REFUSALS = ['invalid_number', 'tenant_dnc', 'national_dnc', 'no_identity', 'outside_window', 'rolling_cap'] as const;
export type Decree91Refusal = (typeof DECREE91_REFUSALS)[number];

/** What the agent reads on a refused "Gọi" or contact, and the results' label of each refusal. */
export const DECREE91_MESSAGES: Record<Decree91Refusal, string> = {
  invalid_number: MSG.phoneFormat,
  tenant_dnc: 'Số nằm trong danh sách không gọi của doanh nghiệp',
  national_dnc: 'Số nằm trong Danh sách không quảng cáo',
  no_identity: 'Hotline chưa được đăng ký tên định danh để gọi quảng cáo',
  outside_window: 'Ngoài khung giờ được phép gọi quảng cáo (08:00–17:00)',
  rolling_cap: 'Số này đã nhận cuộc gọi quảng cáo trong 24 giờ qua',
};

/** A policy's answer: allowed (and whether the subscriber's consent lifted the cap), or refused with why. */
export type Decree91Decision =
  | { allowed: true; capLifted: boolean }
  | { allowed: false; reason: Decree91Refusal; message: string };
