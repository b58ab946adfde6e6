import { Body1, Button, Field, Input, MessageBar, MessageBarBody, Radio, RadioGroup, Title3, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { PERM, RECORDING_MODE_LABELS, RECORDING_MODES, RecordingSettingsSchema, type RecordingSettings } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import { EntityField, ErrorState, LoadingState, useApiError, useEntityDraft, useFormSubmit, type DraftForm, type FieldDef } from '@tongdai/ui';
import { NS } from '../i18n';
import { useRecordingSettings, useSaveRecordingSettings } from './settings.api';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: '12px', maxWidth: '880px' },
  muted: { color: tokens.colorNeutralForeground3 },
  card: { background: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusLarge, boxShadow: tokens.shadow4, padding: '24px', display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: '16px', alignItems: 'start' },
  days: { maxWidth: '220px' },
  wide: { gridColumn: '1 / -1' },
});

/** The kit's on/off switch with its hint (label and hint: settings.recording.fields / hints.monitor_calls). */
const MONITOR_CALLS: FieldDef = { name: 'monitor_calls', kind: 'switch', states: 'onOff', hint: true };

/** The mode as a choice, the days as typed text: the contract's schema turns "" into null (kept for ever). */
const RECORDING: DraftForm = {
  fields: [{ name: 'recording_mode', kind: 'choice', options: RECORDING_MODE_LABELS }, { name: 'retention_days', kind: 'int' }, MONITOR_CALLS],
  schema: RecordingSettingsSchema,
};

/**
 * /setting/system, "Ghi âm cuộc gọi": the tenant's recording mode (queues and extensions without
 * their own follow it) and how many days recordings are kept. Saved on its own (PUT
 * recording-settings) with its own button; without setting.edit it is shown, not changed.
 */
export function RecordingSettingsSection() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const readOnly = !can(PERM.setting.edit);
  const settings = useRecordingSettings();
  const loadError = useApiError(settings.error);
  return (
    <section className={s.section} aria-labelledby="recording-settings-title" data-testid="recording-settings">
      <Title3 as="h2" id="recording-settings-title">{t('settings.recording.title')}</Title3>
      <Body1 className={s.muted}>{t('settings.recording.hint')}</Body1>
      {settings.isPending ? <LoadingState /> : settings.isError
        ? <ErrorState message={loadError?.message ?? ''} onRetry={() => void settings.refetch()} />
        : <RecordingForm loaded={settings.data} readOnly={readOnly} />}
    </section>
  );
}

function RecordingForm({ loaded, readOnly }: { loaded: RecordingSettings; readOnly: boolean }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const save = useSaveRecordingSettings();
  const form = useEntityDraft(RECORDING, loaded);
  const { submit, formError } = useFormSubmit(form, (input) => save.mutateAsync(input as unknown as RecordingSettings), () => t('settings.recording.saved'));
  const { draft, errors, set } = form;
  return (
    <form className={s.section} noValidate onSubmit={(e) => { e.preventDefault(); if (!readOnly) void submit(); }} data-testid="recording-settings-form">
      {formError && <MessageBar intent="error" data-testid="recording-form-error"><MessageBarBody>{formError}</MessageBarBody></MessageBar>}
      <div className={s.card}>
        <Field label={t('settings.recording.mode')} validationMessage={errors.recording_mode} validationState={errors.recording_mode ? 'error' : 'none'}>
          <RadioGroup value={String(draft.recording_mode)} disabled={readOnly} onChange={(_, d) => set('recording_mode')(d.value)} data-testid="field-recording_mode">
            {RECORDING_MODES.map((m) => <Radio key={m} value={m} label={RECORDING_MODE_LABELS[m]} data-testid={`recording-mode-${m}`} />)}
          </RadioGroup>
        </Field>
        <Field
          label={t('settings.recording.retention_days')} hint={t('settings.recording.retentionHint')}
          validationMessage={errors.retention_days} validationState={errors.retention_days ? 'error' : 'none'}
        >
          <Input
            className={s.days} type="number" inputMode="numeric" min={1} max={3650} value={String(draft.retention_days)} disabled={readOnly}
            placeholder={t('settings.recording.forever')} contentAfter={t('settings.recording.days')}
            onChange={(_, d) => set('retention_days')(d.value)} data-testid="field-retention_days"
          />
        </Field>
        <div className={s.wide}>
          <EntityField field={MONITOR_CALLS} ns={NS} prefix="settings.recording" value={draft.monitor_calls} errors={errors} onChange={set('monitor_calls')} disabled={readOnly} />
        </div>
      </div>
      {readOnly
        ? <Body1 className={s.muted} data-testid="recording-read-only">{t('settings.recording.readOnly')}</Body1>
        : (
          <div>
            {/* Busy, it keeps the focus (a disabled button would drop it). */}
            <Button appearance="primary" type="submit" disabledFocusable={save.isPending} data-testid="recording-save">{t('settings.recording.save')}</Button>
          </div>
        )}
    </form>
  );
}
