import * as v from 'valibot';
import { fieldKind } from './registry';
import type { AnySchema, Draft, FieldDef, FieldErrors } from './types';

/**
 * Form state ↔ API input. The draft holds what the inputs show (numbers as text, references as
 * select strings, "" = none); the entity's contract schema turns it into the input the API takes,
 * the same schema the API validates with. Defaults come from that schema too.
 */

interface Form {
  fields: readonly FieldDef[];
  schema: AnySchema;
}

const defaultOf = (schema: AnySchema, name: string): unknown => {
  const entry = (schema as { entries?: Record<string, AnySchema> }).entries?.[name];
  return entry ? v.getDefault(entry) : undefined;
};

/** One field's value as the form holds it, from an API row value (or the schema default when blank). */
function toValue(f: FieldDef, x: unknown): unknown {
  const kind = fieldKind(f.kind);
  if (kind.toDraft) return kind.toDraft(x);
  return x === null || x === undefined ? '' : String(x);
}

/** The blank form: schema defaults (ring time 20, strategy ringall, active on…), everything else empty. */
export function blankDraft(entity: Form): Draft {
  return Object.fromEntries(entity.fields.map((f) => [f.name, toValue(f, defaultOf(entity.schema, f.name))]));
}

/** An API row as form state. */
export function toDraft(entity: Pick<Form, 'fields'>, row: Record<string, unknown>): Draft {
  return Object.fromEntries(entity.fields.map((f) => [f.name, toValue(f, row[f.name])]));
}

/** Parses the draft with the entity's schema: the API input, or the first message of each path. */
export function parseDraft(schema: AnySchema, draft: Draft): { ok: true; input: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  const r = v.safeParse(schema, draft);
  if (r.success) return { ok: true, input: r.output as Record<string, unknown> };
  const errors: FieldErrors = {};
  for (const issue of r.issues) {
    const path = v.getDotPath(issue) ?? '';
    if (path && !errors[path]) errors[path] = issue.message;
  }
  return { ok: false, errors };
}

/** The message to show under a field: its own, else the first of its parts ("destination.target"). */
export function errorOf(errors: FieldErrors, name: string): string | undefined {
  if (errors[name]) return errors[name];
  const prefix = `${name}.`;
  for (const [k, m] of Object.entries(errors)) if (m && k.startsWith(prefix)) return m;
  return undefined;
}

/** Drops the errors of a field and its parts once the user changes it. */
export function clearErrors(errors: FieldErrors, name: string): FieldErrors {
  const prefix = `${name}.`;
  return Object.fromEntries(Object.entries(errors).filter(([k]) => k !== name && !k.startsWith(prefix)));
}
