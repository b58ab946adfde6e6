import { EntityField } from './fieldKinds';
import type { FieldDef } from './types';
import type { EntityDraft } from './useEntityForm';

/** Every field of an entity's form, in declaration order; a field with `when` only while it holds. */
export function EntityFields({ entity, form }: { entity: { ns: string; prefix?: string; fields: readonly FieldDef[] }; form: EntityDraft }) {
  return (
    <>
      {entity.fields.filter((f) => !f.when || f.when(form.draft)).map((f) => (
        <EntityField key={f.name} field={f} ns={entity.ns} prefix={entity.prefix} value={form.draft[f.name]} errors={form.errors} onChange={form.set(f.name)} editing={form.editing} draft={form.draft} />
      ))}
    </>
  );
}
