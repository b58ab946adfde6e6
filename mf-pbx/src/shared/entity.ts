import type { ReactNode } from 'react';
import type * as v from 'valibot';
import type { Destination, PbxResource } from '@tongdai/contracts';
import type { PbxEndpoints } from './pbx.api';

/**
 * A PBX area described as data: one generic list, form and dialog serve every area
 * (numbers, inbound routes, ring groups, queues, IVR, notifications, last calls, …).
 */
export type PbxFieldDef =
  | { name: string; kind: 'text' | 'tel' | 'textarea'; required?: boolean; /** show `hints.<name>` under the field */ hint?: boolean }
  | { name: string; kind: 'int'; unit?: 'seconds' | 'days'; required?: boolean }
  | { name: string; kind: 'switch'; /** labels: active/inactive (default) or on/off */ states?: 'active' | 'onOff' }
  /** A fixed list: value → Vietnamese label (e.g. RING_STRATEGY_LABELS); the schema's default is preselected. */
  | { name: string; kind: 'choice'; options: Readonly<Record<string, string>>; required?: boolean }
  /** The tenant's numbers (DID), greetings, or music-on-hold classes. */
  | { name: string; kind: 'did' | 'greeting' | 'moh'; required?: boolean }
  /** A destination; optional ones offer "Ngắt máy" (null). */
  | { name: string; kind: 'destination'; required?: boolean }
  /** Ordered extensions (ring group members, queue agents). */
  | { name: string; kind: 'extensions' }
  /** IVR digit → destination rows. */
  | { name: string; kind: 'ivrEntries' };

export type FieldKind = PbxFieldDef['kind'];

export interface IvrEntryDraft {
  digit: string;
  destination: Destination | null;
}
export type DraftValue = string | boolean | Destination | null | string[] | IvrEntryDraft[];
export type Draft = Record<string, DraftValue>;
/** Keyed by dot path ("name", "destination.target", "entries.1.digit"). */
export type FieldErrors = Record<string, string | undefined>;

export interface ColumnContext {
  /** The area's translations. */
  t: (key: string, options?: Record<string, unknown>) => string;
  /** A destination as a list shows it ("Nhóm đổ chuông: Kinh doanh", null → "Ngắt máy"). */
  describe: (d: Destination | null | undefined) => string;
}

export interface PbxColumn<T> {
  key: string;
  /** Key under `fields` in the area's namespace. */
  header: string;
  render: (row: T, ctx: ColumnContext) => ReactNode;
}

export interface PermSet {
  view: string;
  create: string;
  edit: string;
  delete: string;
}

export interface PbxPaths {
  list: string;
  add: string;
  edit: (id: number) => string;
}

export interface PbxEntity<T extends { id: number } = { id: number }> {
  /** data-testid stem: "ringgroup" → "ringgroup-list", "ringgroup-form". */
  key: string;
  /** i18n namespace of the area (strings from `entityStrings` + `fields.*` + `hints.*`). */
  ns: string;
  /** The partner API resource, or its endpoints when the area uses the exact SPEC §7 paths. */
  resource: PbxResource | PbxEndpoints;
  perm: PermSet;
  paths: PbxPaths;
  /** Add and edit in a dialog on the list (?dialog=new|<key>): SPEC has no add/edit route for it. */
  dialog?: boolean;
  /** What the detail call (and ?dialog=) names a row by, when not its id: a number by its digits (SPEC §7 GET /partner/number/{number}). */
  detailKey?: (row: T) => string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  schema: v.ObjectSchema<any, any>;
  fields: PbxFieldDef[];
  columns: PbxColumn<T>[];
  /** How the delete confirmation names a row. */
  rowName: (row: T) => string;
  /** The list filters by destination type (filter_action, SPEC §3). */
  destinationFilter?: boolean;
}

/** Fields that take the whole width of the form. */
export const WIDE_KINDS: readonly FieldKind[] = ['textarea', 'destination', 'extensions', 'ivrEntries'];

/** Any area, for the generic pieces that never read a row's own fields. */
export type AnyPbxEntity = PbxEntity<never>;
