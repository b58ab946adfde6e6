import * as v from 'valibot';
import type { Destination } from '@tongdai/contracts';
import type { Draft, DraftValue, FieldErrors, IvrEntryDraft, PbxEntity, PbxFieldDef } from './entity';

/**
 * Form state ↔ API input. The draft holds what the inputs show (numbers as text, references as
 * select strings, "" = none); the area's contract schema turns it into the input the API takes,
 * the same schema the API validates with. Defaults come from that schema too.
 */

type Schema = PbxEntity['schema'];

const defaultOf = (schema: Schema, name: string): unknown => {
  const entry = schema.entries[name];
  return entry ? v.getDefault(entry) : undefined;
};

const copyDestination = (d: unknown): Destination | null => {
  if (!d || typeof d !== 'object') return null;
  const { type, target } = d as Destination;
  return type ? { type, target: target === null || target === undefined ? '' : String(target) } : null;
};

/** One field's value as the form holds it, from an API row value (or the schema default when blank). */
function toValue(f: PbxFieldDef, x: unknown): DraftValue {
  switch (f.kind) {
    case 'switch':
      return typeof x === 'boolean' ? x : true;
    case 'destination':
      return copyDestination(x);
    case 'extensions':
      return Array.isArray(x) ? x.map(String) : [];
    case 'ivrEntries':
      return Array.isArray(x) ? x.map((e: { digit?: unknown; destination?: unknown }): IvrEntryDraft => ({ digit: String(e.digit ?? ''), destination: copyDestination(e.destination) })) : [];
    default:
      return x === null || x === undefined ? '' : String(x);
  }
}

/** The blank form: schema defaults (ring time 20, strategy ringall, active on…), everything else empty. */
export function blankDraft(entity: Pick<PbxEntity, 'fields' | 'schema'>): Draft {
  return Object.fromEntries(entity.fields.map((f) => [f.name, toValue(f, defaultOf(entity.schema, f.name))]));
}

/** An API row as form state. */
export function toDraft(entity: Pick<PbxEntity, 'fields'>, row: Record<string, unknown>): Draft {
  return Object.fromEntries(entity.fields.map((f) => [f.name, toValue(f, row[f.name])]));
}

/** Parses the draft with the area's schema: the API input, or the first message of each path. */
export function parseDraft(schema: Schema, draft: Draft): { ok: true; input: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
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
