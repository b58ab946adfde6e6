import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RECORDING_API, campaignApi, campaignResultsApi, type Campaign, type CampaignContact, type Paged, type CampaignResults, type CampaignFamily, type CampaignOptions, type CampaignProgress, type CampaignState, type ContactImportResult, type CrmFilter, type One, GOOGLE_CREDENTIALS_API, type GoogleCredentialsView, type GoogleSheetImport,
} from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { saveBlob } from '@tongdai/ui';

/** Query-key root of a family's campaigns: every write refreshes its list, progress and dropdowns. */
export const campaignScope = (family: CampaignFamily) => `campaigns-${family}`;

/** GET …/options: the form's dropdowns and the CRM filter's labels. */
export function useCampaignOptions(family: CampaignFamily) {
  return useQuery({
    queryKey: [campaignScope(family), 'options'],
    queryFn: () => tenantApi().get(campaignApi(family).options).json<One<CampaignOptions>>().then((r) => r.data),
    staleTime: 30_000,
  });
}

/** Live progress of a campaign that calls (running or paused): refreshed every 5 s while shown. */
export function useCampaignProgress(family: CampaignFamily, campaign: Pick<Campaign, 'id' | 'state' | 'progress'>) {
  const live = campaign.state === 'running' || campaign.state === 'paused';
  return useQuery({
    queryKey: [campaignScope(family), 'progress', campaign.id],
    queryFn: () => tenantApi().get(campaignApi(family).progress(campaign.id)).json<One<CampaignProgress>>().then((r) => r.data),
    initialData: campaign.progress,
    refetchInterval: live ? 5_000 : false,
    staleTime: live ? 0 : Infinity,
  });
}

/** POST …/state: start, pause, resume, end. */
export function useTransition(family: CampaignFamily) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: number; to: Exclude<CampaignState, 'draft'> }) => tenantApi().post(campaignApi(family).state(id), { json: { to } }).json<One<Campaign>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: [campaignScope(family)] }),
  });
}

export interface FileImport {
  file: File;
  name_column: number | null;
  phone_column: number | null;
  commit: boolean;
  skip_invalid: boolean;
}

/** POST …/contacts/file: a preview (commit false) or the import of an XLSX/CSV with its mapping. */
export function useImportFile(family: CampaignFamily, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: FileImport) => {
      const body = new FormData();
      body.append('file', p.file);
      if (p.name_column !== null) body.append('name_column', String(p.name_column));
      if (p.phone_column !== null) body.append('phone_column', String(p.phone_column));
      body.append('commit', String(p.commit));
      body.append('skip_invalid', String(p.skip_invalid));
      return tenantApi().post(campaignApi(family).importFile(id), { body, timeout: 120_000 }).json<One<ContactImportResult>>().then((r) => r.data);
    },
    onSuccess: (r) => (r.committed ? qc.invalidateQueries({ queryKey: [campaignScope(family)] }) : undefined),
  });
}

/** POST …/contacts/crm: a preview or the import of the customers the filter finds. */
export function useImportCrm(family: CampaignFamily, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (filter: CrmFilter) => tenantApi().post(campaignApi(family).importCrm(id), { json: filter, timeout: 120_000 }).json<One<ContactImportResult>>().then((r) => r.data),
    onSuccess: (r) => (r.committed ? qc.invalidateQueries({ queryKey: [campaignScope(family)] }) : undefined),
  });
}

/** POST …/contacts/sheet: a preview or the import of a Google Sheet's tab, read by the tenant's service account. */
export function useImportSheet(family: CampaignFamily, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: Omit<GoogleSheetImport, 'user_id'> & { user_id: string }) => tenantApi().post(campaignApi(family).importSheet(id), { json: p, timeout: 120_000 }).json<One<ContactImportResult>>().then((r) => r.data),
    onSuccess: (r) => (r.committed ? qc.invalidateQueries({ queryKey: [campaignScope(family)] }) : undefined),
  });
}

/** GET /google-credentials: whose service account reads the tenant's sheets (its e-mail only). */
export function useGoogleCredentials() {
  return useQuery({
    queryKey: ['google-credentials'],
    queryFn: () => tenantApi().get(GOOGLE_CREDENTIALS_API).json<One<GoogleCredentialsView>>().then((r) => r.data),
    // Set on the settings card (the host's cache): asked again each time the dialog opens.
    refetchOnMount: 'always',
  });
}

/** GET …/results: the campaign's results read model (campaign.view). */
export function useCampaignResults(family: CampaignFamily, id: number) {
  return useQuery({
    queryKey: [campaignScope(family), 'results', id],
    queryFn: () => tenantApi().get(campaignResultsApi(family).results(id)).json<One<CampaignResults>>().then((r) => r.data),
  });
}

/** Contacts a page of the results shows. */
export const CONTACTS_PAGE = 10;

/** GET …/contacts: a page of contacts, each with its call and (for recording.listen) its recording. */
export function useCampaignContacts(family: CampaignFamily, id: number, page: number) {
  return useQuery({
    queryKey: [campaignScope(family), 'contacts', id, page],
    queryFn: () => tenantApi().get(campaignApi(family).contacts(id), { searchParams: { page, per_page: CONTACTS_PAGE } }).json<Paged<CampaignContact>>(),
    placeholderData: (previous) => previous,
  });
}

/** A call's recording, fetched with the viewer's token (no public link); long enough for an hour's MP3. */
export const fetchRecording = (id: number): Promise<Blob> => tenantApi().get(RECORDING_API.audio(id), { timeout: 120_000 }).blob();

/** GET …/results/export.<format> (campaign.export): the contacts with their results and answers, saved as a file. */
export async function downloadResults(family: CampaignFamily, id: number, format: 'csv' | 'xlsx'): Promise<void> {
  const blob = await tenantApi().get(campaignResultsApi(family).export(id, format), { timeout: false }).blob();
  saveBlob(blob, `ket-qua-chien-dich-${id}.${format}`);
}
