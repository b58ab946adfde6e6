import { useEffect, useMemo, useState } from 'react';
import { Checkbox, Field, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SITE_LOGO_MAX_BYTES, SITE_LOGO_TYPES, SITE_MSG, SiteNameSchema } from '@tongdai/contracts';
import { FileInput, type DraftForm } from '@tongdai/ui';
import { NS } from '../i18n';
import { siteLogoSrc, useSaveSite, useSiteInfo } from './settings.api';
import { SettingsForm, SettingsText } from './SettingsForm';

const useStyles = makeStyles({
  logo: { display: 'flex', flexDirection: 'column', gap: '8px' },
  preview: { maxHeight: '64px', maxWidth: '240px', objectFit: 'contain', background: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium, padding: '4px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

const SITE: DraftForm = { fields: [{ name: 'name', kind: 'text', required: true }], schema: SiteNameSchema };

/** Checked in the browser for a quick answer; the API checks the bytes again. */
function logoProblem(file: File): string | null {
  if (!(SITE_LOGO_TYPES as readonly string[]).includes(file.type)) return SITE_MSG.logoType;
  if (file.size > SITE_LOGO_MAX_BYTES) return SITE_MSG.logoTooLarge;
  return null;
}

/** /setting/site: the name and logo shown in the top bar (POST /change-info-site, multipart). */
export function SiteSettingsScreen() {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const site = useSiteInfo();
  const save = useSaveSite();
  const [file, setFile] = useState<File | null>(null);
  const [logoError, setLogoError] = useState<string | undefined>();
  const [removeLogo, setRemoveLogo] = useState(false);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);
  const current = removeLogo ? null : preview ?? siteLogoSrc(site.data?.logo_url ?? null);

  // The name goes with the logo in one multipart request.
  const send = async (input: Record<string, unknown>) => {
    const body = new FormData();
    body.set('name', String(input.name));
    if (file) body.set('logo', file);
    else if (removeLogo) body.set('remove_logo', '1');
    await save.mutateAsync(body);
    setFile(null);
    setRemoveLogo(false);
  };

  return (
    <SettingsForm card="site" testId="site-settings-form" form={SITE} loaded={site.data} loading={site.isLoading} save={send} saving={save.isPending} ready={() => !logoError}>
      {(form) => {
        // The API answers logo problems under the field "logo", which the name-only schema does not know.
        const logoMessage = logoError ?? form.errors.logo;
        return (
          <>
            <SettingsText form={form} name="name" label={t('settings.site.name')} />
            <Field label={t('settings.site.logo')} hint={t('settings.site.logoHint')} validationMessage={logoMessage} validationState={logoMessage ? 'error' : 'none'}>
              <div className={s.logo}>
                {current ? <img src={current} alt={t('shell.siteLogo')} className={s.preview} data-testid="logo-preview" /> : <Text className={s.muted}>{t('settings.site.noLogo')}</Text>}
                <FileInput
                  name="logo" accept={SITE_LOGO_TYPES.join(',')} label={t('settings.site.logo')} testId="field-logo"
                  onChange={(f) => {
                    setLogoError(f ? logoProblem(f) ?? undefined : undefined);
                    setFile(f && !logoProblem(f) ? f : null);
                    if (f) setRemoveLogo(false);
                  }}
                />
                {site.data?.logo_url && !file && (
                  <Checkbox label={t('settings.site.removeLogo')} checked={removeLogo} onChange={(_, d) => setRemoveLogo(!!d.checked)} data-testid="remove-logo" />
                )}
              </div>
            </Field>
          </>
        );
      }}
    </SettingsForm>
  );
}
