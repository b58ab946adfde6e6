import { useEffect, useState } from 'react';
import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ACTIVITY_STATUSES, type ActivityStatus } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { FormShell, LoadingState } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSetActivityStatus, useUserInfo } from './settings.api';

/** /user-setting/status: PUT /update-activity-status; 3 stops the phone (SPEC §4). */
export function StatusScreen() {
  const { t } = useTranslation(NS);
  const info = useUserInfo();
  const save = useSetActivityStatus();
  const [status, setStatus] = useState<ActivityStatus>(1);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (info.data) setStatus(info.data.status_activity);
  }, [info.data]);
  if (info.isLoading) return <LoadingState />;

  const submit = async () => {
    setError(null);
    try {
      await save.mutateAsync(status);
      notify('success', t('settings.saved'));
    } catch (e) {
      setError((await toApiError(e)).message);
    }
  };
  return (
    <FormShell
      title={t('settings.cards.status.title')} testId="status-form" backTo="/setting"
      onSubmit={() => void submit()} submitting={save.isPending} error={error}
    >
      <Field label={t('settings.status.label')}>
        <RadioGroup value={String(status)} onChange={(_, d) => setStatus(Number(d.value) as ActivityStatus)} data-testid="field-status">
          {ACTIVITY_STATUSES.map((s) => <Radio key={s.value} value={String(s.value)} label={s.label} data-testid={`status-${s.value}`} />)}
        </RadioGroup>
      </Field>
    </FormShell>
  );
}
