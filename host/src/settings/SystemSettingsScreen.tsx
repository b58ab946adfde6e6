import { useMemo } from 'react';
import { Field, Input, Radio, RadioGroup, Switch } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { maskPhone, PERM, PROVIDER_LABELS, PROVIDERS, SystemSettingInputSchema } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { FormShell, LoadingState } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSaveSystemSetting, useSystemSetting } from './settings.api';
import { useSchemaForm } from './useSchemaForm';

const BLANK = { hidden_phone_customer: '0', position_hidden_phone_customer: '0', show_popup_customer: '1', voice_over_internet_protocol: '1' };
const EXAMPLE_PHONE = '0912345678';

/** /setting/system: phone masking, customer popup, softphone provider (SPEC §3). */
export function SystemSettingsScreen() {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const setting = useSystemSetting();
  const save = useSaveSystemSetting();
  const loaded = useMemo(
    () => (setting.data ? (Object.fromEntries(Object.entries(setting.data).map(([k, v]) => [k, String(v)])) as typeof BLANK) : null),
    [setting.data],
  );
  const form = useSchemaForm(SystemSettingInputSchema, BLANK, loaded);
  if (setting.isLoading) return <LoadingState />;
  const { draft, errors, set } = form;
  const readOnly = !can(PERM.setting.edit);
  const flag = (name: 'hidden_phone_customer' | 'show_popup_customer') => (
    <Field validationMessage={errors[name]} validationState={errors[name] ? 'error' : 'none'}>
      <Switch
        label={t(`settings.system.${name}`)} checked={draft[name] === '1'} disabled={readOnly}
        onChange={(_, d) => set(name)(d.checked ? '1' : '0')} data-testid={`field-${name}`}
      />
    </Field>
  );

  const submit = async () => {
    const input = form.validate();
    if (!input) return;
    try {
      await save.mutateAsync(input);
      notify('success', t('settings.saved'));
    } catch (e) {
      await form.showApiError(e);
    }
  };

  const position = Number(draft.position_hidden_phone_customer) || 0;
  return (
    <FormShell
      title={t('settings.cards.system.title')} testId="system-settings-form" backTo="/setting"
      onSubmit={() => void submit()} submitting={save.isPending || readOnly} error={form.formError}
    >
      {flag('hidden_phone_customer')}
      <Field
        label={t('settings.system.position_hidden_phone_customer')}
        hint={t('settings.system.positionHint', { example: maskPhone(EXAMPLE_PHONE, position) })}
        validationMessage={errors.position_hidden_phone_customer} validationState={errors.position_hidden_phone_customer ? 'error' : 'none'}
      >
        <Input
          type="number" min={0} max={12} value={draft.position_hidden_phone_customer} disabled={readOnly}
          onChange={(_, d) => set('position_hidden_phone_customer')(d.value)} data-testid="field-position_hidden_phone_customer"
        />
      </Field>
      {flag('show_popup_customer')}
      <Field label={t('settings.system.voice_over_internet_protocol')} validationMessage={errors.voice_over_internet_protocol}>
        <RadioGroup value={draft.voice_over_internet_protocol} disabled={readOnly} onChange={(_, d) => set('voice_over_internet_protocol')(d.value)} data-testid="field-voice_over_internet_protocol">
          {PROVIDERS.map((p) => <Radio key={p} value={String(p)} label={PROVIDER_LABELS[p]} data-testid={`provider-${p}`} />)}
        </RadioGroup>
      </Field>
    </FormShell>
  );
}
