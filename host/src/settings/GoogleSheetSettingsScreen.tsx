import { useMemo } from 'react';
import { MessageBar, MessageBarBody } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { GoogleCredentialsSchema, type GoogleCredentialsInput } from '@tongdai/contracts';
import { EntityField, type DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { useGoogleCredentials, useSaveGoogleCredentials } from './settings.api';
import { SettingsForm } from './SettingsForm';

/** The key file as text: never filled from the API (the key is not answered back), blank keeps it. */
const GOOGLE: DraftForm = { fields: [{ name: 'key_json', kind: 'textarea', hint: true }], schema: GoogleCredentialsSchema };

/**
 * /setting/google-sheet (issue 33): the tenant's Google service account that reads a campaign's
 * Google Sheet. Shows whose account it is — the e-mail a sheet is shared with — never the key;
 * a pasted key file replaces it ("để trống để giữ").
 */
export function GoogleSheetSettingsScreen() {
  const { t } = useTranslation(NS);
  const current = useGoogleCredentials();
  const save = useSaveGoogleCredentials();
  const email = current.data?.client_email;
  // A new answer (after saving) empties the field again: the key is never shown back.
  const loaded = useMemo(() => (current.data ? { key_json: '' } : null), [current.data]);
  return (
    <SettingsForm card="google-sheet" testId="google-sheet-settings" form={GOOGLE} loaded={loaded} loading={current.isLoading}
      save={(input) => save.mutateAsync(input as GoogleCredentialsInput)} saving={save.isPending} done="settings.google.saved">
      {({ draft, errors, set }) => (
        <>
          <MessageBar intent={email ? 'success' : 'warning'}>
            <MessageBarBody data-testid="google-account">{email ? t('settings.google.current', { email }) : t('settings.google.none')}</MessageBarBody>
          </MessageBar>
          <EntityField field={GOOGLE.fields[0]} ns={NS} prefix="settings.google" value={draft.key_json} errors={errors} onChange={set('key_json')} />
        </>
      )}
    </SettingsForm>
  );
}
