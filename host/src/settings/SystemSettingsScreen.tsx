import { Field, Input, Radio, RadioGroup, Switch, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { maskPhone, PERM, PROVIDER_LABELS, PROVIDERS, SystemSettingInputSchema, type SystemSettingInput } from '@tongdai/contracts';
import { useCan } from '@tongdai/platform/react';
import type { DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSaveSystemSetting, useSystemSetting } from './settings.api';
import { RecordingSettingsSection } from './RecordingSettingsSection';
import { SettingsForm } from './SettingsForm';

const useStyles = makeStyles({ page: { display: 'flex', flexDirection: 'column', gap: '32px' } });

/** What the form shows should the setting not load. */
const BLANK = { hidden_phone_customer: '0', position_hidden_phone_customer: '0', show_popup_customer: '1', voice_over_internet_protocol: '1' };
/** Flags as '1'/'0', the position and provider as typed text: the schema turns them into numbers. */
const SYSTEM: DraftForm = {
  fields: Object.keys(BLANK).map((name) => ({ name, kind: 'text' as const })),
  schema: SystemSettingInputSchema,
};
const EXAMPLE_PHONE = '0912345678';

/** /setting/system: phone masking, customer popup, softphone provider (SPEC §3); call recording (issue 16). */
export function SystemSettingsScreen() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const setting = useSystemSetting();
  const save = useSaveSystemSetting();
  const readOnly = !can(PERM.setting.edit);
  return (
    <div className={s.page}>
      <SettingsForm card="system" testId="system-settings-form" form={SYSTEM} loaded={setting.data ?? BLANK} loading={setting.isLoading}
        save={(input) => save.mutateAsync(input as SystemSettingInput)} saving={save.isPending} readOnly={readOnly}>
        {({ draft, errors, set }) => {
          const flag = (name: 'hidden_phone_customer' | 'show_popup_customer') => (
            <Field validationMessage={errors[name]} validationState={errors[name] ? 'error' : 'none'}>
              <Switch
                label={t(`settings.system.${name}`)} checked={draft[name] === '1'} disabled={readOnly}
                onChange={(_, d) => set(name)(d.checked ? '1' : '0')} data-testid={`field-${name}`}
              />
            </Field>
          );
          const position = Number(draft.position_hidden_phone_customer) || 0;
          return (
            <>
              {flag('hidden_phone_customer')}
              <Field
                label={t('settings.system.position_hidden_phone_customer')}
                hint={t('settings.system.positionHint', { example: maskPhone(EXAMPLE_PHONE, position) })}
                validationMessage={errors.position_hidden_phone_customer} validationState={errors.position_hidden_phone_customer ? 'error' : 'none'}
              >
                <Input
                  type="number" min={0} max={12} value={String(draft.position_hidden_phone_customer)} disabled={readOnly}
                  onChange={(_, d) => set('position_hidden_phone_customer')(d.value)} data-testid="field-position_hidden_phone_customer"
                />
              </Field>
              {flag('show_popup_customer')}
              <Field label={t('settings.system.voice_over_internet_protocol')} validationMessage={errors.voice_over_internet_protocol}>
                <RadioGroup value={String(draft.voice_over_internet_protocol)} disabled={readOnly} onChange={(_, d) => set('voice_over_internet_protocol')(d.value)} data-testid="field-voice_over_internet_protocol">
                  {PROVIDERS.map((p) => <Radio key={p} value={String(p)} label={PROVIDER_LABELS[p]} data-testid={`provider-${p}`} />)}
                </RadioGroup>
              </Field>
            </>
          );
        }}
      </SettingsForm>
      {/* Its own call and its own button: saving one part never sends the other. */}
      <RecordingSettingsSection />
    </div>
  );
}
