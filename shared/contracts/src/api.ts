import * as v from 'valibot';
import { MSG } from './messages';
import { ALL_ROWS_PER_PAGE, PAGE_SIZE, PROVIDERS, type Provider } from './constants';
import type { PaymentCheck } from './permissions';

/** Every list answer: rows plus paging. */
export interface Paged<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number };
}
/** Every single-object answer. */
export interface One<T> {
  data: T;
}

const requiredText = v.pipe(v.string(MSG.required), v.trim(), v.nonEmpty(MSG.required));

/** Identity POST /login/tenant and tenant POST /login. */
export const LoginSchema = v.object({
  ma_dn: v.pipe(requiredText, v.maxLength(64)),
  username: v.pipe(requiredText, v.maxLength(128)),
  password: v.pipe(v.string(MSG.required), v.nonEmpty(MSG.required), v.maxLength(256)),
});
export type LoginInput = v.InferOutput<typeof LoginSchema>;
export interface LoginResult {
  token: string;
  ma_dn: string;
  tenant_name: string;
  expires_in: number;
}

/** GET /me: the first entry of roles becomes the session user. */
export interface MeResult {
  id: number;
  username: string;
  full_name: string;
  email: string | null;
  tenant: { ma_dn: string; name: string };
  roles: { id: number; name: string; permissions: { name: string }[] }[];
}

export interface RoleRow {
  id: number;
  /** The role's code (SPEC §6: `super-admin` has full access). */
  name: string;
  /** What screens show ('' = the name itself): see `roleLabel`. */
  display_name?: string;
  permissions: { id: number; name: string }[];
}
export interface PermissionRow {
  id: number;
  name: string;
  group: string;
  label: string;
}

export const RoleListQuerySchema = v.object({
  page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1)), 1),
  per_page: v.optional(v.pipe(v.union([v.string(), v.number()]), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(ALL_ROWS_PER_PAGE)), PAGE_SIZE),
});

/** GET /get-system-setting (SPEC §3). */
export interface SystemSetting {
  hidden_phone_customer: number;
  position_hidden_phone_customer: number;
  show_popup_customer: number;
  voice_over_internet_protocol: Provider;
}

/** voice_over_internet_protocol is 1 when not numeric (or not a known provider). */
export function normaliseProvider(value: unknown): Provider {
  const n = typeof value === 'number' ? value : Number(value);
  return (PROVIDERS as readonly number[]).includes(n) ? (n as Provider) : 1;
}

export type PaymentCheckResult = PaymentCheck;

/** Control panel POST /get-max-user-company-tenancy. */
export const MaxUserSchema = v.object({ ma_dn: v.pipe(requiredText, v.maxLength(64)) });
export interface MaxUserResult {
  ma_dn: string;
  max_user: number;
  current_user: number;
}

/** Base addresses of the five API surfaces; `tenant` is a template holding `{ma_dn}`. */
export interface ApiBases {
  cp: string;
  identity: string;
  pbx: string;
  tenant: string;
  telecom: string;
}

/** The host's runtime config.json. */
export interface RuntimeConfig {
  apis: ApiBases;
  /** Each remote's mf-manifest.json (a remote the registry lists runs its registered release instead). */
  remotes: Record<string, string>;
  /** Where the registry of the releases that run is (ADR 0053), read at every start of the page. */
  registry?: string;
}

/** The registry (registry.json, ADR 0053): which release of each remote runs; written by `npm run promote`. */
export interface RemoteRegistry {
  schema: 1;
  updated_at: string;
  remotes: Record<string, RegistryRelease & { canary?: RegistryRelease & { percent: number } }>;
}

/** One release as the registry names it. */
export interface RegistryRelease {
  version: string;
  entry: string;
  platform: string;
}

/** What a build says of itself (release.json beside its mf-manifest.json, ADR 0053). */
export interface ReleaseInfo {
  remote: string;
  package: string;
  version: string;
  /** A remote: the range of the platform contract it was built against (`^1.0.0`). */
  platform?: string;
  /** The host: the platform contract it provides. */
  platformContract?: string;
  shared: Record<string, string>;
  built_at: string;
}

export function tenantBase(template: string, maDn: string): string {
  return template.replace('{ma_dn}', encodeURIComponent(maDn));
}
