import * as v from 'valibot';
import { MSG } from './messages';
import { MobilePhoneSchema } from './phone';

/** Tenant code: what users type at login and what the tenant API path carries. */
export const MA_DN_PATTERN = /^[a-z0-9-]{3,32}$/;
export const PASSWORD_MIN = 8;

export const SIGNUP_MSG = {
  maDnFormat: 'Mã doanh nghiệp gồm 3–32 ký tự: chữ thường, chữ số hoặc dấu gạch ngang',
  maDnTaken: 'Mã doanh nghiệp đã tồn tại',
  usernameFormat: 'Tên đăng nhập gồm 3–64 ký tự: chữ, số, dấu chấm, gạch dưới hoặc gạch ngang',
  email: 'Email không hợp lệ',
  passwordMin: `Mật khẩu tối thiểu ${PASSWORD_MIN} ký tự`,
  passwordMismatch: 'Mật khẩu xác nhận không khớp',
} as const;

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));
const max = (n: number) => v.maxLength<string, number, string>(n, `Tối đa ${n} ký tự`);

/** An empty value reports only "required", not also the format (abortPipeEarly). */
const strict = <S extends v.GenericSchema>(schema: S) => v.config(schema, { abortPipeEarly: true });

export const passwordField = strict(v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required), v.minLength(PASSWORD_MIN, SIGNUP_MSG.passwordMin), max(256)));
export const emailField = strict(v.pipe(requiredText, v.email(SIGNUP_MSG.email), max(255)));
/** The user's own mobile number (SPEC §5 10-digit check). */
export const phoneField = MobilePhoneSchema;

/** Identity POST /signup: a new tenant with its first (super-admin) user. */
export const SignupSchema = v.pipe(
  v.object({
    company_name: v.pipe(requiredText, max(255)),
    ma_dn: strict(v.pipe(requiredText, v.toLowerCase(), v.regex(MA_DN_PATTERN, SIGNUP_MSG.maDnFormat))),
    full_name: v.pipe(requiredText, max(255)),
    username: strict(v.pipe(requiredText, v.regex(/^[A-Za-z0-9._-]{3,64}$/, SIGNUP_MSG.usernameFormat))),
    email: emailField,
    phone: phoneField,
    password: passwordField,
    password_confirmation: v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required)),
  }),
  v.forward(
    v.partialCheck([['password'], ['password_confirmation']], (i) => i.password === i.password_confirmation, SIGNUP_MSG.passwordMismatch),
    ['password_confirmation'],
  ),
);
export type SignupInput = v.InferOutput<typeof SignupSchema>;

export interface SignupResult {
  ma_dn: string;
  username: string;
  /** Trial end (YYYY-MM-DD). */
  date_expired: string;
}

/** A new tenant gets every feature for this many days. */
export const TRIAL_DAYS = 30;
