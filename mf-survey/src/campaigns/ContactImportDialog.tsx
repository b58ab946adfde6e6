import { useState } from 'react';
import {
  Button, Tooltip, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, MessageBar, MessageBarBody, Spinner, Tab, TabList, makeStyles,
} from '@fluentui/react-components';
import { PeopleAddRegular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { GOOGLE_SHEET_SETTING, PERM, paths, type Campaign, type CampaignFamily, type ContactImportResult, type CrmFilter } from '@tongdai/contracts';
import { notify, toApiError } from '@tongdai/platform';
import { useCan } from '@tongdai/platform/react';
import { AppLink, FileInput, SelectField, TextField } from '@tongdai/ui';
import { NS } from '../i18n';
import { useCampaignOptions, useGoogleCredentials, useImportCrm, useImportFile, useImportSheet } from './campaign.api';
import { ImportPreview } from './ImportPreview';

const useStyles = makeStyles({
  surface: { maxWidth: '860px', width: '92vw' },
  body: { display: 'flex', flexDirection: 'column', gap: '12px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: '8px 12px', alignItems: 'end' },
});

type Source = 'file' | 'crm' | 'sheet';
/** The SPEC's sheet import fields, as typed. */
const NO_SHEET = { name: '', sheet_id: '', sheet_name: '', user_id: '' };
const NO_FILTER = { data_source_id: null, project_id: null, profile_status_id: null, department_id: null };
const num = (x: string) => (x === '' ? null : Number(x));

/**
 * Contacts for a campaign from an XLSX/CSV or a Google Sheet's tab (the columns mapped: name, phone,
 * the rest become the contact's fields) or a CRM filter; a preview first, nothing saved until "Nhập", and rows refused
 * only skipped when the user says so. A running campaign's list only grows (the API says the same).
 */
export function ContactImportDialog({ family, campaign, onClose }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'name' | 'state'>; onClose: () => void }) {
  const s = useStyles();
  const { t } = useTranslation(NS);
  const options = useCampaignOptions(family);
  const fileImport = useImportFile(family, campaign.id);
  const crmImport = useImportCrm(family, campaign.id);
  const sheetImport = useImportSheet(family, campaign.id);
  const google = useGoogleCredentials();
  const [sheet, setSheet] = useState(NO_SHEET);
  const [sheetErrors, setSheetErrors] = useState<Record<string, string>>({});
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<{ name_column: number | null; phone_column: number | null }>({ name_column: null, phone_column: null });
  const [filter, setFilter] = useState<Omit<CrmFilter, 'commit' | 'skip_invalid'>>(NO_FILTER);
  const [result, setResult] = useState<ContactImportResult | null>(null);
  const [skip, setSkip] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = fileImport.isPending || crmImport.isPending || sheetImport.isPending;

  const run = async (commit: boolean, over: { file?: File | null; mapping?: typeof mapping; filter?: typeof filter } = {}) => {
    setError(null);
    setSheetErrors({});
    try {
      const r = source === 'file'
        ? await fileImport.mutateAsync({ file: (over.file ?? file)!, ...(over.mapping ?? mapping), commit, skip_invalid: skip })
        : source === 'sheet'
          ? await sheetImport.mutateAsync({ ...sheet, ...(over.mapping ?? mapping), commit, skip_invalid: skip })
          : await crmImport.mutateAsync({ ...(over.filter ?? filter), commit, skip_invalid: skip });
      if (commit && r.committed) {
        notify('success', t('contacts.imported', { n: r.imported }));
        onClose();
        return;
      }
      setResult(r);
      if (source !== 'crm' && r.mapping) setMapping({ name_column: r.mapping.name_column, phone_column: r.mapping.phone_column });
    } catch (e) {
      const body = await toApiError(e);
      // The form's own refusals under their fields; Google's (a longer sentence) above the preview.
      const onFields = source === 'sheet' && body.code === 'VALIDATION_FAILED' ? (body.details ?? []).filter((d) => d.field in NO_SHEET) : [];
      if (onFields.length) setSheetErrors(Object.fromEntries(onFields.map((d) => [d.field, d.message])));
      else setError(body.details?.[0]?.message ?? body.message);
    }
  };
  const chooseFile = (f: File | null) => {
    setFile(f);
    setResult(null);
    const fresh = { name_column: null, phone_column: null };
    setMapping(fresh);
    if (f) void run(false, { file: f, mapping: fresh });
  };
  const remap = (key: 'name_column' | 'phone_column', value: string) => {
    const next = { ...mapping, [key]: value === '' ? -1 : Number(value) };
    setMapping(next);
    void run(false, { mapping: next });
  };
  const columns = (result?.columns ?? []).map((c, i) => ({ value: String(i), label: c || t('contacts.column', { n: i + 1 }) }));
  const phoneChosen = source === 'crm' || (mapping.phone_column !== null && mapping.phone_column >= 0);
  const canImport = !!result && result.valid > 0 && phoneChosen && (result.errors.length === 0 || skip);
  const labels = (list: { id: number; name: string }[] | undefined) => (list ?? []).map((x) => ({ value: String(x.id), label: x.name }));

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={s.surface} data-testid="contact-import">
        <DialogBody>
          <DialogTitle>{t('contacts.title', { name: campaign.name })}</DialogTitle>
          <DialogContent className={s.body}>
            {campaign.state !== 'draft' && (
              <MessageBar intent="info"><MessageBarBody>{t('contacts.onlyAdd')}</MessageBarBody></MessageBar>
            )}
            <TabList selectedValue={source} onTabSelect={(_, d) => { setSource(d.value as Source); setResult(null); setError(null); setMapping({ name_column: null, phone_column: null }); }}>
              <Tab value="file" data-testid="source-file">{t('contacts.fromFile')}</Tab>
              <Tab value="sheet" data-testid="source-sheet">{t('contacts.fromSheet')}</Tab>
              <Tab value="crm" data-testid="source-crm">{t('contacts.fromCrm')}</Tab>
            </TabList>
            {source !== 'crm' ? (
              <div className={s.grid}>
                {source === 'file' ? (
                  <FileInput accept=".xlsx,.csv" testId="contact-file" label={t('contacts.file')} onChange={chooseFile} />
                ) : (
                  <>
                    <TextField name="name" label={t('contacts.listName')} required value={sheet.name} onChange={(v) => setSheet({ ...sheet, name: v })} error={sheetErrors.name} />
                    <TextField name="sheet_id" label={t('contacts.sheetId')} required value={sheet.sheet_id} onChange={(v) => setSheet({ ...sheet, sheet_id: v })} error={sheetErrors.sheet_id} />
                    <TextField name="sheet_name" label={t('contacts.sheetName')} required value={sheet.sheet_name} onChange={(v) => setSheet({ ...sheet, sheet_name: v })} error={sheetErrors.sheet_name} />
                    <SelectField name="user_id" label={t('contacts.owner')} required value={sheet.user_id} onChange={(v) => setSheet({ ...sheet, user_id: v })} error={sheetErrors.user_id}
                      options={(options.data?.agents ?? []).map((a) => ({ value: String(a.id), label: a.name }))} placeholder={t('contacts.chooseUser')} />
                    <Button onClick={() => void run(false)} disabled={busy} data-testid="sheet-preview">{t('contacts.readSheet')}</Button>
                  </>
                )}
                {result && (
                  <>
                    <SelectField name="name_column" label={t('contacts.nameColumn')} value={mapping.name_column !== null && mapping.name_column >= 0 ? String(mapping.name_column) : ''}
                      onChange={(v) => remap('name_column', v)} options={columns} placeholder={t('contacts.noColumn')} />
                    <SelectField name="phone_column" label={t('contacts.phoneColumn')} required value={phoneChosen && mapping.phone_column !== null ? String(mapping.phone_column) : ''}
                      onChange={(v) => remap('phone_column', v)} options={columns} placeholder={t('contacts.chooseColumn')} error={phoneChosen ? undefined : t('contacts.choosePhone')} />
                  </>
                )}
              </div>
            ) : (
              <div className={s.grid}>
                <SelectField name="data_source_id" label={t('contacts.dataSource')} value={String(filter.data_source_id ?? '')} onChange={(v) => setFilter({ ...filter, data_source_id: num(v) })}
                  options={labels(options.data?.data_sources)} placeholder={t('contacts.any')} />
                <SelectField name="project_id" label={t('contacts.project')} value={String(filter.project_id ?? '')} onChange={(v) => setFilter({ ...filter, project_id: num(v) })}
                  options={labels(options.data?.projects)} placeholder={t('contacts.any')} />
                <SelectField name="profile_status_id" label={t('contacts.profileStatus')} value={String(filter.profile_status_id ?? '')}
                  onChange={(v) => setFilter({ ...filter, profile_status_id: num(v) })} options={labels(options.data?.profile_statuses)} placeholder={t('contacts.any')} />
                <SelectField name="department_id" label={t('contacts.department')} value={String(filter.department_id ?? '')} onChange={(v) => setFilter({ ...filter, department_id: num(v) })}
                  options={labels(options.data?.departments)} placeholder={t('contacts.any')} />
                <Button onClick={() => void run(false)} disabled={busy} data-testid="crm-preview">{t('contacts.preview')}</Button>
              </div>
            )}
            {source === 'sheet' && !google.isPending && (
              <MessageBar intent={google.data?.client_email ? 'info' : 'warning'}>
                <MessageBarBody data-testid="sheet-account">
                  {google.data?.client_email ? t('contacts.shareWith', { email: google.data.client_email }) : t('contacts.noAccount')}{' '}
                  <AppLink to={paths.settings.tenant(GOOGLE_SHEET_SETTING)} testId="sheet-settings">{t('contacts.setAccount')}</AppLink>
                </MessageBarBody>
              </MessageBar>
            )}
            {error && <MessageBar intent="error"><MessageBarBody data-testid="import-error">{error}</MessageBarBody></MessageBar>}
            {busy && <Spinner size="tiny" label={t('contacts.reading')} />}
            {result && phoneChosen && <ImportPreview result={result} skip={skip} onSkip={setSkip} />}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose}>{t('question.close')}</Button>
            <Button appearance="primary" icon={<PeopleAddRegular />} disabled={!canImport || busy} onClick={() => void run(true)} data-testid="import-commit">
              {t('contacts.commit', { n: result?.valid ?? 0 })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The row's "Danh bạ" button: the import dialog, for holders of campaign.edit while the campaign has not ended. */
export function ContactImportButton({ family, campaign }: { family: CampaignFamily; campaign: Pick<Campaign, 'id' | 'name' | 'state'> }) {
  const { t } = useTranslation(NS);
  const { can } = useCan();
  const [open, setOpen] = useState(false);
  if (!can(PERM.campaign.edit) || campaign.state === 'ended') return null;
  return (
    <>
      <Tooltip content={t('contacts.button')} relationship="label">
        <Button size="small" icon={<PeopleAddRegular />} onClick={() => setOpen(true)} data-testid="campaign-contacts" />
      </Tooltip>
      {open && <ContactImportDialog family={family} campaign={campaign} onClose={() => setOpen(false)} />}
    </>
  );
}
