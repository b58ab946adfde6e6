import * as v from 'valibot';
import { MSG } from './messages';
import { PROVIDERS, FEATURES, type FeatureName } from './constants';
import { emailField, passwordField, phoneField, SIGNUP_MSG } from './signup';

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));
/** A whole number, or its digits as a form sends them: "" is not 0 (issue 12 §6), nor is " ", "0x10" or "1e1" a number. */
const toInt = v.pipe(
  v.union([v.number('Phải là số'), v.config(v.pipe(v.string('Phải là số'), v.trim(), v.nonEmpty(MSG.required), v.regex(/^-?\d{1,9}$/, 'Phải là số nguyên')), { abortPipeEarly: true })], 'Phải là số'),
  v.transform(Number),
  v.integer('Phải là số nguyên'),
);
const flag = v.pipe(toInt, v.picklist([0, 1], 'Chỉ nhận 0 hoặc 1'));

/** Slugs of /setting/:slug and /user-setting/:slug. */
export const SETTING_SLUGS = ['site', 'system'] as const;
export const USER_SETTING_SLUGS = ['profile', 'password', 'status'] as const;
export type SettingSlug = (typeof SETTING_SLUGS)[number];
export type UserSettingSlug = (typeof USER_SETTING_SLUGS)[number];

/** Vietnamese names of the three softphone providers (voice_over_internet_protocol). */
export const PROVIDER_LABELS: Record<(typeof PROVIDERS)[number], string> = {
  1: 'Tổng đài IP (WebRTC qua máy chủ SIP)',
  2: 'Tổng đài đối tác (SIP qua WebSocket)',
  3: 'Tổng đài eTelecom (SDK bên thứ ba)',
};

/** Vietnamese names of the purchasable features (payment check). */
export const FEATURE_LABELS: Record<FeatureName, string> = {
  [FEATURES.customer]: 'Quản lý khách hàng',
  [FEATURES.popupCustomer]: 'Popup thông tin khách hàng khi có cuộc gọi',
  [FEATURES.pbx]: 'Tổng đài (PBX)',
  [FEATURES.report]: 'Báo cáo cuộc gọi',
  [FEATURES.survey]: 'Khảo sát',
  [FEATURES.marketing]: 'Chiến dịch marketing',
  [FEATURES.voiceOtp]: 'Voice OTP',
};

/** PUT /update-system-setting (SPEC §3). The position is where the *** start; 0 = the middle. */
export const SystemSettingInputSchema = v.object({
  hidden_phone_customer: flag,
  position_hidden_phone_customer: v.pipe(toInt, v.minValue(0, 'Không được nhỏ hơn 0'), v.maxValue(12, 'Không được lớn hơn 12')),
  show_popup_customer: flag,
  voice_over_internet_protocol: v.pipe(toInt, v.picklist([...PROVIDERS], 'Chọn một nhà cung cấp')),
});
export type SystemSettingInput = v.InferOutput<typeof SystemSettingInputSchema>;

/** GET /change-info-site. logo_url is relative to the tenant API base (null: no logo). */
export interface SiteInfo {
  name: string;
  logo_url: string | null;
}
export const SITE_LOGO_MAX_BYTES = 1024 * 1024;
export const SITE_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'image/webp'] as const;
export const SITE_MSG = {
  logoTooLarge: 'Logo tối đa 1 MB',
  logoType: 'Logo phải là ảnh PNG, JPEG, SVG hoặc WebP',
} as const;
export const SiteNameSchema = v.object({ name: v.pipe(requiredText, v.maxLength(255, 'Tối đa 255 ký tự')) });

/** PUT /update-user-info-login: the logged-in user's own profile. */
export const UserInfoSchema = v.object({
  full_name: v.pipe(requiredText, v.maxLength(255, 'Tối đa 255 ký tự')),
  email: emailField,
  phone: phoneField,
});
export type UserInfoInput = v.InferOutput<typeof UserInfoSchema>;
/** GET /user-info-login. */
export interface UserInfo extends UserInfoInput {
  username: string;
  /** The extension of the subscriber linked to the user (null = none). */
  extension_code: string | null;
  /** The user's role as screens show it. */
  role_label: string | null;
  status_activity: ActivityStatus;
}

export const CHANGE_PASSWORD_MSG = { wrongCurrent: 'Mật khẩu hiện tại không đúng' } as const;
/** PUT /change-password. */
export const ChangePasswordSchema = v.pipe(
  v.object({
    current_password: v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required)),
    password: passwordField,
    password_confirmation: v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required)),
  }),
  v.forward(
    v.partialCheck([['password'], ['password_confirmation']], (i) => i.password === i.password_confirmation, SIGNUP_MSG.passwordMismatch),
    ['password_confirmation'],
  ),
);
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordSchema>;

/** SPEC §3 status_activity; 3 stops the phone (SPEC §4). */
export const ACTIVITY_STATUSES = [
  { value: 1, label: 'Sẵn sàng' },
  { value: 2, label: 'Tạm nghỉ' },
  { value: 3, label: 'Ngừng nhận cuộc gọi' },
] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number]['value'];
export const ActivityStatusSchema = v.object({ status: v.pipe(toInt, v.picklist([1, 2, 3] as ActivityStatus[], 'Trạng thái không hợp lệ')) });

/**
 * Phone shown partly hidden with *** (SPEC §9). `position` is where the three stars start,
 * 0 meaning "the middle". Same length in and out, so masking twice changes nothing.
 */
export function maskPhone(phone: string, position = 0): string {
  if (!phone || phone.length < 4) return phone;
  const start = position > 0 ? Math.min(position, phone.length - 3) : Math.floor((phone.length - 3) / 2);
  return `${phone.slice(0, start)}***${phone.slice(start + 3)}`;
}
