import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE } from './constants';
import { omittableRef, refFilter } from './ref';

/** SPEC §5: optional leading 0 or 84, then 7 to 12 digits. */
export const PHONE_PATTERN = /^(0|84)?\d{7,12}$/;

export const CUSTOMER_STATUSES = [
  { value: 'new', label: 'Mới' },
  { value: 'contacting', label: 'Đang chăm sóc' },
  { value: 'potential', label: 'Tiềm năng' },
  { value: 'customer', label: 'Đã mua hàng' },
  { value: 'stopped', label: 'Ngừng chăm sóc' },
] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number]['value'];
const STATUS_VALUES = CUSTOMER_STATUSES.map((s) => s.value) as [CustomerStatus, ...CustomerStatus[]];

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));
const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, `Tối đa ${max} ký tự`)), '');

/** Messages of customer checks only the API can make. */
export const CUSTOMER_MSG = { userUnknown: 'Nhân viên phụ trách không tồn tại' } as const;

/** The customer form, one schema for the browser and the API (SPEC §3, §5). */
export const CustomerInputSchema = v.object({
  name: v.pipe(requiredText, v.maxLength(255, 'Tối đa 255 ký tự')),
  code: optionalText(64),
  email: v.optional(
    v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.email('Email không hợp lệ'), v.maxLength(255, 'Tối đa 255 ký tự'))], 'Email không hợp lệ'),
    '',
  ),
  // abortPipeEarly: an empty phone reports only "required", not also the format.
  phone: v.config(v.pipe(requiredText, v.regex(PHONE_PATTERN, MSG.phoneFormat)), { abortPipeEarly: true }),
  address: optionalText(500),
  zalo: optionalText(255),
  facebook: optionalText(255),
  status: v.picklist(STATUS_VALUES, MSG.required),
  note: optionalText(2000),
  user_id: v.optional(v.nullable(v.pipe(v.number(), v.integer())), null),
  // Labels from the organisation screens (project, data source, profile status); optional.
  is_project: omittableRef,
  is_datasource: omittableRef,
  is_status: omittableRef,
});
export type CustomerInput = v.InferOutput<typeof CustomerInputSchema>;

/** The blank customer form (SPEC §3). */
export const BLANK_CUSTOMER = {
  name: '',
  code: '',
  email: '',
  phone: '',
  address: '',
  zalo: '',
  facebook: '',
  status: '',
  note: '',
  user_id: null as number | null,
};

export interface Customer extends CustomerInput {
  id: number;
  note_in_calling: string | null;
  is_datasource: number | null;
  is_project: number | null;
  is_status: number | null;
  created_at: string;
  updated_at: string;
}

const intFromQuery = (min: number, max: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(min), v.maxValue(max)), fallback);

/** Query of the customer list: page size 10 by default. */
export const CustomerListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  status: v.optional(v.union([v.literal(''), v.picklist(STATUS_VALUES)]), ''),
  is_project: refFilter,
  is_datasource: refFilter,
  is_status: refFilter,
});
export type CustomerListQuery = v.InferOutput<typeof CustomerListQuerySchema>;
