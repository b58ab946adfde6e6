import type { AnyPbxEntity } from './entity';
import { PbxField } from './PbxField';
import type { usePbxDraft } from './usePbxForm';

/** Every field of an area's form, in declaration order. */
export function PbxFields({ entity, form }: { entity: AnyPbxEntity; form: ReturnType<typeof usePbxDraft> }) {
  return (
    <>
      {entity.fields.map((f) => (
        <PbxField key={f.name} field={f} ns={entity.ns} value={form.draft[f.name]} errors={form.errors} onChange={form.set(f.name)} />
      ))}
    </>
  );
}
