import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE } from './constants';
import { MobilePhoneSchema } from './phone';
import { PASSWORD_MATCH_PATHS, PASSWORD_MISMATCH, PASSWORD_PAIR_ENTRIES, samePasswords } from './roles';

/** Login names: 3 to 64 of a-z, 0-9, dot, underscore, hyphen (lower case: login is case-insensitive). */
export const USERNAME_PATTERN = /^[a-z0-9._-]{3,64}$/;

export const ACCOUNT_STATUSES = [
  { value: 'active', label: 'Đang hoạt động' },
  { value: 'locked', label: 'Đã khoá' },
] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number]['value'];
const STATUS_VALUES = ACCOUNT_STATUSES.map((s) => s.value) as [AccountStatus, ...AccountStatus[]];

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));
/** Select boxes send strings; '' (or null) means "none". */
const optionalId = v.optional(
  v.pipe(
    v.nullable(v.union([v.string(), v.number()])),
    v.transform((x) => (x === null || x === '' ? null : Number(x))),
    v.nullable(v.pipe(v.number('Giá trị không hợp lệ'), v.integer('Giá trị không hợp lệ'), v.minValue(1, 'Giá trị không hợp lệ'))),
  ),
  null,
);
const requiredId = v.pipe(
  v.union([v.string(MSG.required), v.number(MSG.required)], MSG.required),
  v.transform(Number),
  v.number(MSG.required),
  v.integer(MSG.required),
  v.minValue(1, MSG.required),
);

const accountFields = {
  full_name: v.pipe(requiredText, v.maxLength(255, 'Tối đa 255 ký tự')),
  username: v.config(
    v.pipe(requiredText, v.toLowerCase(), v.regex(USERNAME_PATTERN, 'Tên đăng nhập gồm 3–64 ký tự: chữ thường không dấu, số, dấu chấm, gạch dưới, gạch ngang')),
    { abortPipeEarly: true },
  ),
  email: v.optional(
    v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.email('Email không hợp lệ'), v.maxLength(255, 'Tối đa 255 ký tự'))], 'Email không hợp lệ'),
    '',
  ),
  /** A staff member's mobile (SPEC §5 10-digit check), or nothing. */
  phone: v.optional(v.union([v.literal(''), MobilePhoneSchema], MSG.phoneFormat), ''),
  role_id: requiredId,
  department_id: optionalId,
  team_id: optionalId,
  branch_id: optionalId,
  status: v.picklist(STATUS_VALUES, MSG.required),
};

/** PUT /accounts/{id}: everything but the password (changed on its own). */
export const AccountUpdateSchema = v.object(accountFields);
export type AccountUpdateInput = v.InferOutput<typeof AccountUpdateSchema>;

/** POST /accounts: the fields plus a password typed twice. */
export const AccountCreateSchema = v.pipe(
  v.object({ ...accountFields, ...PASSWORD_PAIR_ENTRIES }),
  v.forward(v.partialCheck(PASSWORD_MATCH_PATHS, samePasswords, PASSWORD_MISMATCH), ['password_confirmation']),
);
export type AccountCreateInput = v.InferOutput<typeof AccountCreateSchema>;

/** The blank account form: strings, as the inputs hold them. */
export const BLANK_ACCOUNT = {
  full_name: '',
  username: '',
  email: '',
  phone: '',
  role_id: '',
  department_id: '',
  team_id: '',
  branch_id: '',
  status: 'active',
  password: '',
  password_confirmation: '',
};

/** An account as the API answers it (never with the password hash). */
export interface Account {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  status: AccountStatus;
  /** The extension of the subscriber linked to this account ('' = none): the one number that registers and rings. */
  extension_code: string;
  role_id: number | null;
  /** The role's code. */
  role_name: string | null;
  /** The role as screens show it (`roleLabel`). */
  role_label: string | null;
  department_id: number | null;
  team_id: number | null;
  branch_id: number | null;
  created_at: string;
  updated_at: string;
}

/** GET /accounts: page size 10, search over name, login, email, phone and the linked extension. */
export const AccountListQuerySchema = v.object({
  page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 1),
  per_page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(100)), PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  role_id: v.optional(v.pipe(v.union([v.literal(''), v.pipe(v.string(), v.regex(/^\d{1,9}$/))]), v.transform((x) => (x === '' ? null : Number(x)))), ''),
  status: v.optional(v.union([v.literal(''), v.picklist(STATUS_VALUES)]), ''),
});
export type AccountListQuery = v.InferOutput<typeof AccountListQuerySchema>;

/** SPEC §7 control panel: the tenant may not hold more users than max_user. */
export const userLimitMessage = (current: number, max: number) =>
  `Doanh nghiệp đã dùng hết số tài khoản cho phép (${current}/${max}). Vui lòng liên hệ quản trị để nâng cấp.`;

export const ACCOUNT_MSG = {
  usernameTaken: 'Tên đăng nhập đã tồn tại',
  deleteSelf: 'Không thể xoá tài khoản đang đăng nhập',
  lastSuperAdmin: 'Không thể xoá, khoá hoặc đổi vai trò của tài khoản super-admin cuối cùng',
  teamNotInDepartment: 'Nhóm không thuộc phòng ban đã chọn',
  notFoundRef: 'Không tìm thấy dữ liệu đã chọn',
} as const;
