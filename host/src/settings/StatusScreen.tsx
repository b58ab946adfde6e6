import { useMemo } from 'react';
import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ACTIVITY_STATUSES, ActivityStatusSchema, type ActivityStatus } from '@tongdai/contracts';
import type { DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { useSetActivityStatus, useUserInfo } from './settings.api';
import { SettingsForm } from './SettingsForm';

const STATUS: DraftForm = { fields: [{ name: 'status', kind: 'text' }], schema: ActivityStatusSchema };
/** Ready, should the profile not load. */
const READY = { status: 1 };

/** /user-setting/status: PUT /update-activity-status; 3 stops the phone (SPEC §4). */
export function StatusScreen() {
  const { t } = useTranslation(NS);
  const info = useUserInfo();
  const save = useSetActivityStatus();
  const loaded = useMemo(() => (info.data ? { status: info.data.status_activity } : READY), [info.data]);
  return (
    <SettingsForm card="status" testId="status-form" form={STATUS} loaded={loaded} loading={info.isLoading}
      save={(input) => save.mutateAsync((input as { status: ActivityStatus }).status)} saving={save.isPending}>
      {(form) => (
        <Field label={t('settings.status.label')}>
          <RadioGroup value={String(form.draft.status)} onChange={(_, d) => form.set('status')(d.value)} data-testid="field-status">
            {ACTIVITY_STATUSES.map((s) => <Radio key={s.value} value={String(s.value)} label={s.label} data-testid={`status-${s.value}`} />)}
          </RadioGroup>
        </Field>
      )}
    </SettingsForm>
  );
}
