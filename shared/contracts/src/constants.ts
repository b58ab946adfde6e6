/** Constants of SPEC §9, in one place for the API and every remote. */

/** Default list page size. */
export const PAGE_SIZE = 10;
/** per_page used for the unpaginated role fetch. */
export const ALL_ROWS_PER_PAGE = 9999999;

export const PROVIDERS = [1, 2, 3] as const;
export type Provider = (typeof PROVIDERS)[number];
export const DEFAULT_PROVIDER: Provider = 1;

/** SIP registration expiry on provider 1, seconds. */
export const SIP_REGISTER_EXPIRES_PROVIDER_1 = 60;
/** SIP status used to reject a second call while one is active (provider 1). */
export const BUSY_REJECT_STATUS = 486;

/** Destination option values, spelled exactly as the spec (including its typos). */
export const DESTINATION_VALUES = ['ivr', 'direct', 'group', 'fw', 'msg', 'time', 'voicmail', 'queue', 'lastcall', 'voicemaill'] as const;
export type DestinationValue = (typeof DESTINATION_VALUES)[number];
/** The filter's "all" option has an empty value. */
export const DESTINATION_FILTER_ALL = '' as const;

export const SUPER_ADMIN_ROLE = 'super-admin';
/** Shown for the super-admin role (its code stays `super-admin`, SPEC §6). */
export const SUPER_ADMIN_DISPLAY_NAME = 'Quản trị hệ thống';
/** A permission name that every user holds. */
export const GENERAL_PERMISSION = 'general';

/** Day-of-week options: 1 Monday ... 7 Sunday. */
export const DAYS_OF_WEEK = [
  { value: 1, label: 'Thứ Hai' },
  { value: 2, label: 'Thứ Ba' },
  { value: 3, label: 'Thứ Tư' },
  { value: 4, label: 'Thứ Năm' },
  { value: 5, label: 'Thứ Sáu' },
  { value: 6, label: 'Thứ Bảy' },
  { value: 7, label: 'Chủ Nhật' },
] as const;

/** Keys under which the browser keeps state in localStorage. Stable: changing one logs everybody out. */
export const STORAGE_KEYS = {
  token: 'tongdai.token',
  maDn: 'tongdai.ma_dn',
  user: 'tongdai.user',
  darkMode: 'tongdai.dark_mode',
  flash: 'tongdai.flash',
} as const;

/** Feature names of the payment check (feature_name_data). */
export const FEATURES = {
  customer: 'customer',
  popupCustomer: 'popupcustomer',
  pbx: 'pbx',
  report: 'report',
  survey: 'survey',
  marketing: 'marketing',
  voiceOtp: 'voiceotp',
} as const;
export type FeatureName = (typeof FEATURES)[keyof typeof FEATURES];

/** Header on which the API hands back a renewed access token (sliding session, see docs/adr). */
export const REFRESHED_TOKEN_HEADER = 'x-refreshed-token';
