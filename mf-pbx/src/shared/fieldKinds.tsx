import { registerFieldKind } from '@tongdai/ui';
import type { Destination } from '@tongdai/contracts';
import { DestinationField } from './DestinationField';
import { ExtensionsPicker } from './ExtensionsPicker';
import { IvrEntriesField, type IvrEntryDraft } from './IvrEntriesField';
import { PBX_NS } from './pbx.i18n';
import { SourceSelect } from './SourceSelect';

/** The PBX's own field kinds, registered with the entity kit (its built-in kinds: text, int, switch, choice). */
declare module '@tongdai/ui' {
  interface FieldKindOptions {
    /** The tenant's numbers (DID), greetings, or music-on-hold classes. */
    did: object;
    greeting: object;
    moh: object;
    /** A destination; optional ones offer "Ngắt máy" (null). */
    destination: object;
    /** Ordered extensions (ring group members, queue agents). */
    extensions: object;
    /** IVR digit → destination rows. */
    ivrEntries: object;
  }
}

const copyDestination = (d: unknown): Destination | null => {
  if (!d || typeof d !== 'object') return null;
  const { type, target } = d as Destination;
  return type ? { type, target: target === null || target === undefined ? '' : String(target) } : null;
};

for (const source of ['did', 'greeting', 'moh'] as const) {
  registerFieldKind(source, {
    Control: ({ field: f, label, value, onChange, error }) =>
      <SourceSelect source={source} name={f.name} label={label} required={f.required} value={String(value)} onChange={onChange} error={error} />,
  });
}

registerFieldKind('destination', {
  wide: true,
  toDraft: copyDestination,
  Control: ({ field: f, label, value, onChange, error, t }) =>
    <DestinationField name={f.name} label={label} required={f.required} noneLabel={f.required ? undefined : t(`${PBX_NS}:hangUp`)}
      value={value as Destination | null} onChange={onChange} error={error} />,
});

registerFieldKind('extensions', {
  wide: true,
  toDraft: (x) => (Array.isArray(x) ? x.map(String) : []),
  Control: ({ field: f, label, value, onChange, error }) =>
    <ExtensionsPicker name={f.name} label={label} required value={value as string[]} onChange={onChange} error={error} />,
});

registerFieldKind('ivrEntries', {
  wide: true,
  toDraft: (x) => (Array.isArray(x) ? x.map((e: { digit?: unknown; destination?: unknown }): IvrEntryDraft => ({ digit: String(e.digit ?? ''), destination: copyDestination(e.destination) })) : []),
  Control: ({ field: f, label, value, onChange, errors }) =>
    <IvrEntriesField name={f.name} label={label} value={value as IvrEntryDraft[]} onChange={onChange} errors={errors} />,
});
