import { Text, tokens } from '@fluentui/react-components';
import { RECORDING_INHERIT_LABEL, RECORDING_MODE_LABELS, type RecordingMode } from '@tongdai/contracts';
import type { EntityColumn, FieldDef } from '@tongdai/ui';

/**
 * "Ghi âm" of a queue or an extension (issue 16): one of the four modes, or "" for the tenant's
 * (the contract turns it into null). Labelled `fields.recording_mode` in the area's namespace.
 */
export const recordingModeField: FieldDef = { name: 'recording_mode', kind: 'choice', options: RECORDING_MODE_LABELS, placeholder: 'pbx:recordingInherit' };

/** The mode in a list; the tenant's, muted, when the row has none of its own. */
export const recordingCol = <T extends { recording_mode?: RecordingMode | null }>(): EntityColumn<T> => ({
  key: 'recording_mode', header: 'recording_mode',
  render: (r) => (r.recording_mode
    ? <span title={RECORDING_MODE_LABELS[r.recording_mode]} data-testid="row-recording_mode">{RECORDING_MODE_LABELS[r.recording_mode]}</span>
    : <Text style={{ color: tokens.colorNeutralForeground3 }} title={RECORDING_INHERIT_LABEL} data-testid="row-recording_mode">{RECORDING_INHERIT_LABEL}</Text>),
});
