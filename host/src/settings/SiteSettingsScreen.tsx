import { useEffect, useMemo, useState } from 'react';
import { Checkbox, Field, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { SITE_LOGO_MAX_BYTES, SITE_LOGO_TYPES, SITE_MSG, SiteNameSchema } from '@tongdai/contracts';
import { notify } from '@tongdai/platform';
import { FileInput, FormShell, LoadingState, TextField } from '@tongdai/ui';
import { NS } from '../i18n';
import { siteLogoSrc, useSaveSite, useSiteInfo } from './settings.api';
import { useSchemaForm } from './useSchemaForm';

const useStyles = makeStyles({
  logo: { display: 'flex', flexDirection: 'column', gap: '8px' },
  preview: { maxHeight: '64px', maxWidth: '240px', objectFit: 'contain', background: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium, padding: '4px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

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
  const loaded = useMemo(() => (site.data ? { name: site.data.name } : null), [site.data]);
  const form = useSchemaForm(SiteNameSchema, { name: '' }, loaded);
  const [file, setFile] = useState<File | null>(null);
  const [logoError, setLogoError] = useState<string | undefined>();
  const [removeLogo, setRemoveLogo] = useState(false);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);

  if (site.isLoading) return <LoadingState />;
  // The API answers logo problems under the field "logo", which the name-only schema does not know.
  const logoMessage = logoError ?? (form.errors as Record<string, string | undefined>).logo;
  const current = removeLogo ? null : preview ?? siteLogoSrc(site.data?.logo_url ?? null);

  const submit = async () => {
    const input = form.validate();
    if (!input || logoError) return;
    const body = new FormData();
    body.set('name', input.name);
    if (file) body.set('logo', file);
    else if (removeLogo) body.set('remove_logo', '1');
    try {
      await save.mutateAsync(body);
      setFile(null);
      setRemoveLogo(false);
      notify('success', t('settings.saved'));
    } catch (e) {
      await form.showApiError(e);
    }
  };

  return (
    <FormShell
      title={t('settings.cards.site.title')} testId="site-settings-form" backTo="/setting"
      onSubmit={() => void submit()} submitting={save.isPending} error={form.formError}
    >
      <TextField name="name" label={t('settings.site.name')} value={form.draft.name} onChange={form.set('name')} error={form.errors.name} required />
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
    </FormShell>
  );
}
