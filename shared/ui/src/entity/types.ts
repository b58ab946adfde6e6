import type { ComponentType, ReactNode } from 'react';
import type * as v from 'valibot';
import type { CrudPaths } from '@tongdai/contracts';
import type { CrudResource } from './useCrudQueries';

/**
 * Options of each field kind, by kind name. An area adds its own kinds by augmenting this interface
 * (`declare module '@tongdai/ui' { interface FieldKindOptions { destination: {} } }`) and
 * registering them with `registerFieldKind`; the kit itself is never edited for it.
 */
export interface FieldKindOptions {
  text: { /** show `hints.<name>` under the field */ hint?: boolean };
  tel: { hint?: boolean };
  email: { hint?: boolean };
  /** A secret typed into a password input; `autoComplete` as the browser should fill it. */
  password: { autoComplete?: 'current-password' | 'new-password'; /** i18n key of the placeholder when editing (a write-only secret: empty keeps it) */ keepPlaceholder?: string };
  textarea: { hint?: boolean };
  /** A whole number typed as text; `unit` is an i18n key shown after it (e.g. "pbx:seconds"). */
  int: { unit?: string; hint?: boolean };
  /** On/off; labels active/inactive (default) or on/off; `hint` as for text. */
  switch: { states?: 'active' | 'onOff'; hint?: boolean };
  /** A fixed list: value → Vietnamese label; the schema's default is preselected. `placeholder`: i18n key of a first "" entry (nothing chosen yet). */
  choice: { options: Readonly<Record<string, string>>; placeholder?: string; hint?: boolean };
  /** A value the form carries unchanged and does not show (a customer's owner): kept as the API gave it. */
  kept: object;
  /** A Vietnam calendar day, YYYY-MM-DD ("" for none). */
  date: object;
}

export type FieldKindName = keyof FieldKindOptions;

/** One form field: its name (the schema entry), its kind and that kind's options. */
export type FieldDef = { [K in FieldKindName]: { name: string; kind: K; required?: boolean; /** shown only while this holds of the form (a switch that reveals its settings) */ when?: (draft: Draft) => boolean } & FieldKindOptions[K] }[FieldKindName];

/** Form state: what the inputs show (numbers as text, references as select strings, "" = none). */
export type Draft = Record<string, unknown>;
/** Keyed by dot path ("name", "destination.target", "entries.1.digit"). */
export type FieldErrors = Record<string, string | undefined>;

export type Translate = (key: string | string[], options?: Record<string, unknown>) => string;

export interface ColumnContext {
  /** The entity's translations (its namespace first; "ns:key" reaches another). */
  t: Translate;
}

export interface EntityColumn<T> {
  key: string;
  /** Key under `fields` in the entity's namespace. */
  header: string;
  render: (row: T, ctx: ColumnContext) => ReactNode;
  /** A CSS width for the column (a phone number's, so it is never cut); the other columns share the rest. */
  width?: string;
}

/** What each action needs; a read-only entity (a report) names only `view`: no add, edit or delete. */
export interface PermSet {
  view: string;
  create?: string;
  edit?: string;
  delete?: string;
}

/** A list filter kept in the URL (?<key>=); the component renders its control. */
export interface EntityFilter {
  key: string;
  Control: ComponentType<{ value: string; onChange: (value: string) => void }>;
  /**
   * A value the list must not send (a reversed date range typed into the URL): the list asks for
   * nothing while it is there, and the Control says why beside itself.
   */
  held?: (value: string) => boolean;
}

/** An export button on the list, shown to holders of `permission`. */
export interface EntityExport {
  permission: string;
  /** i18n key of the button (default "export" in the entity's strings). */
  label?: string;
  /** i18n key of the success toast (default "exported"). */
  done?: string;
  /** File formats offered in a choice before the button (e.g. csv, xlsx); `run` gets the one chosen. */
  formats?: readonly ExportFormat[];
  run: (format?: ExportFormat) => Promise<unknown>;
}

export type ExportFormat = 'csv' | 'xlsx';

export type AnySchema = v.GenericSchema<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One typed declaration per entity: the kit renders its list, form page and form dialog from it. */
export interface EntityDef<T extends { id: number } = { id: number }> {
  /** data-testid stem: "ringgroup" → "ringgroup-list", "ringgroup-form". */
  key: string;
  /** i18n namespace: labels `fields.<name>`, hints `hints.<name>`, entity strings (`entityStrings`) under `prefix`. */
  ns: string;
  /** Key prefix of the entity strings when several entities share one namespace ("team" → "team.listTitle"). */
  prefix?: string;
  /** From contracts `paths`: list, add, edit (page routes or a dialog on the list). */
  paths: CrudPaths;
  permission: PermSet;
  /** Purchased feature the routes need. */
  feature?: string;
  /** The contract's input schema: the form parses with it before anything is sent. */
  schema: AnySchema;
  fields: FieldDef[];
  columns: EntityColumn<T>[];
  api: CrudResource;
  /** How the delete confirmation names a row. */
  rowName: (row: T) => string;
  /** What the detail call (and ?dialog=) names a row by, when not its id: a number by its digits (SPEC §7 GET /partner/number/{number}). */
  detailKey?: (row: T) => string;
  filters?: EntityFilter[];
  export?: EntityExport;
}

/** Any entity, for the generic pieces that never read a row's own fields. */
export type AnyEntity = EntityDef<never>;

/** Declares an entity; the identity function that gives the declaration its types. */
export function defineEntity<T extends { id: number }>(def: EntityDef<T>): EntityDef<T> {
  return def;
}

/** The entity's own strings: "listTitle" → "team.listTitle" when the namespace holds several entities. */
export const entityKey = (e: Pick<EntityDef, 'prefix'>, key: string) => (e.prefix ? `${e.prefix}.${key}` : key);

/** A field's label: `<prefix>.fields.<name>`, else the namespace's shared `fields.<name>`. */
export const fieldKey = (e: Pick<EntityDef, 'prefix'>, name: string, part: 'fields' | 'hints' = 'fields'): string[] =>
  (e.prefix ? [`${e.prefix}.${part}.${name}`, `${part}.${name}`] : [`${part}.${name}`]);
