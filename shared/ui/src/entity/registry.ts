import type { ComponentType } from 'react';
import type { Draft, FieldDef, FieldErrors, FieldKindName, Translate } from './types';

/** What a field kind's control receives. */
export interface FieldControlProps<F extends FieldDef = FieldDef, V = unknown> {
  field: F;
  /** `fields.<name>` in the entity's namespace. */
  label: string;
  /** The entity's namespace (hints are `hints.<name>`). */
  ns: string;
  value: V;
  onChange: (value: V) => void;
  /** The field's message (its own or its first part's). */
  error?: string;
  /** Every message of the form, for kinds with rows ("entries.1.digit"). */
  errors: FieldErrors;
  t: Translate;
  /** true when the form edits an existing object (false: a new one). */
  editing: boolean;
  /** The field's hint (`hints.<name>`, under the entity's prefix first) when its kind says `hint: true`. */
  hint?: string;
  /** Shown, not changed (a reader without the edit permission). */
  disabled?: boolean;
  /** The whole form as it stands, for a control that shows the rest of it (a preview of the object being edited). */
  draft?: Draft;
}

/** A field kind: its control, how an API value becomes form state, and whether it takes the whole row. */
export interface FieldKind<K extends FieldKindName = FieldKindName, V = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  Control: ComponentType<FieldControlProps<Extract<FieldDef, { kind: K }>, V>>;
  /** API row value (or schema default) → form value; default: text ("" for none). */
  toDraft?: (x: unknown) => V;
  wide?: boolean;
  /** Takes no place on the form (a carried value). */
  hidden?: boolean;
}

const registry = new Map<string, FieldKind>();

/** Adds a field kind (an area's own: destination, members, colour…). Registering a name twice replaces it. */
export function registerFieldKind<K extends FieldKindName, V>(name: K, kind: FieldKind<K, V>): void {
  registry.set(name, kind as unknown as FieldKind);
}

export function fieldKind(name: string): FieldKind {
  const k = registry.get(name);
  if (!k) throw new Error(`Field kind "${name}" is not registered (registerFieldKind)`);
  return k;
}

