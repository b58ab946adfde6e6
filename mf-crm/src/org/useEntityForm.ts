import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { DEFAULT_STATUS_COLOR } from '@tongdai/contracts';
import type { FieldDef, OrgEntity } from './org.entities';

export type DraftValue = string | boolean | number[];
export type Draft = Record<string, DraftValue>;
export type FieldErrors = Record<string, string | undefined>;

/** The blank form: text empty, switches on, references "none", no members. */
export function blankDraft(fields: FieldDef[]): Draft {
  const blank = (f: FieldDef): DraftValue =>
    f.kind === 'switch' ? true : f.kind === 'color' ? DEFAULT_STATUS_COLOR : f.kind === 'members' ? [] : '';
  return Object.fromEntries(fields.map((f) => [f.name, blank(f)]));
}

/** A row from the API as form state (references become the select's string value). */
export function toDraft(fields: FieldDef[], row: Record<string, unknown>): Draft {
  const value = (f: FieldDef): DraftValue => {
    const x = row[f.name];
    if (f.kind === 'switch') return x !== false;
    if (f.kind === 'members') return Array.isArray(x) ? (x as number[]) : [];
    return x === null || x === undefined ? '' : String(x);
  };
  return Object.fromEntries(fields.map((f) => [f.name, value(f)]));
}

/** Form state of one organisation entity, validated by the same valibot schema the API uses. */
export function useEntityForm(entity: Pick<OrgEntity, 'fields' | 'schema'>, existing: Record<string, unknown> | undefined) {
  const [draft, setDraft] = useState<Draft>(() => blankDraft(entity.fields));
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => {
    setDraft(existing ? toDraft(entity.fields, existing) : blankDraft(entity.fields));
    setErrors({});
  }, [existing, entity]);

  const set = (field: string) => (value: DraftValue) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** Returns the parsed input, or null after showing the field errors. */
  const validate = (): Record<string, unknown> | null => {
    const r = v.safeParse(entity.schema, draft);
    if (r.success) return r.output as Record<string, unknown>;
    const next: FieldErrors = {};
    for (const issue of r.issues) {
      const path = v.getDotPath(issue)?.split('.')[0];
      if (path && !next[path]) next[path] = issue.message;
    }
    setErrors(next);
    return null;
  };

  return { draft, errors, set, validate, setErrors };
}
