import * as v from 'valibot';
import { MSG } from './messages';
import { PAGE_SIZE } from './constants';
import { PHONE_PATTERN } from './customer';
import { optionalRef, refFilter, requiredRef } from './ref';

export { optionalRef, refFilter, requiredRef } from './ref';

/** Organisation entities: departments, teams, branches, projects, data sources, profile statuses, user groups. */

/** 409 message when a name is already used in the tenant. */
export const NAME_TAKEN = 'Tên đã tồn tại';
const max = (n: number) => `Tối đa ${n} ký tự`;
const name = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required), v.maxLength(255, max(255)));
const text = (n: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(n, max(n))), '');
const active = v.optional(v.boolean('Giá trị không hợp lệ'), true);

export const DepartmentInputSchema = v.object({
  name,
  code: text(64),
  description: text(1000),
  manager_id: optionalRef,
  active,
});
export type DepartmentInput = v.InferOutput<typeof DepartmentInputSchema>;

export const TeamInputSchema = v.object({
  name,
  department_id: requiredRef,
  description: text(1000),
  leader_id: optionalRef,
});
export type TeamInput = v.InferOutput<typeof TeamInputSchema>;

export const BranchInputSchema = v.object({
  name,
  code: text(64),
  address: text(500),
  phone: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.regex(PHONE_PATTERN, MSG.phoneFormat))], MSG.phoneFormat), ''),
  description: text(1000),
});
export type BranchInput = v.InferOutput<typeof BranchInputSchema>;

/** Projects and data sources: the labels customers are tagged with. */
export const LabelInputSchema = v.object({ name, description: text(1000), active });
export type LabelInput = v.InferOutput<typeof LabelInputSchema>;

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
export const DEFAULT_STATUS_COLOR = '#0F6CBD';
export const ProfileStatusInputSchema = v.object({
  name,
  description: text(1000),
  color: v.optional(v.pipe(v.string(), v.trim(), v.regex(HEX_COLOR, 'Màu phải có dạng #RRGGBB')), DEFAULT_STATUS_COLOR),
  active,
});
export type ProfileStatusInput = v.InferOutput<typeof ProfileStatusInputSchema>;

export const GroupInputSchema = v.object({
  name,
  description: text(1000),
  member_ids: v.optional(v.pipe(v.array(v.pipe(v.number('Giá trị không hợp lệ'), v.integer(), v.minValue(1))), v.maxLength(500, 'Tối đa 500 thành viên')), []),
});
export type GroupInput = v.InferOutput<typeof GroupInputSchema>;

const intFromQuery = (min: number, maxValue: number, fallback: number) =>
  v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer('Phải là số nguyên'), v.minValue(min), v.maxValue(maxValue)), fallback);

/** Query of every organisation list: page size 10 by default. */
export const OrgListQuerySchema = v.object({
  page: intFromQuery(1, 1_000_000, 1),
  per_page: intFromQuery(1, 100, PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  department_id: refFilter,
});
export type OrgListQuery = v.InferOutput<typeof OrgListQuerySchema>;

interface Stamped {
  id: number;
  created_at: string;
  updated_at: string;
}
export interface Department extends DepartmentInput, Stamped {
  manager_name: string | null;
  team_count: number;
  user_count: number;
}
export interface Team extends TeamInput, Stamped {
  department_name: string;
  leader_name: string | null;
}
export interface Branch extends BranchInput, Stamped {}
export interface Project extends LabelInput, Stamped {}
export interface DataSource extends LabelInput, Stamped {}
export interface ProfileStatus extends ProfileStatusInput, Stamped {}
export interface UserGroup extends GroupInput, Stamped {
  members: { id: number; full_name: string }[];
}

/** One option of a dropdown. */
export interface OrgOption {
  id: number;
  name: string;
}
/** GET /get-data-filter: every dropdown of list filters and org forms in one call. */
export interface DataFilter {
  projects: OrgOption[];
  data_sources: OrgOption[];
  profile_statuses: (OrgOption & { color: string })[];
  departments: OrgOption[];
  teams: (OrgOption & { department_id: number })[];
  branches: OrgOption[];
  users: OrgOption[];
}
