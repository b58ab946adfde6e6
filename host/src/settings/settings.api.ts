import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GOOGLE_CREDENTIALS_API, RECORDING_API, tenantBase, type GoogleCredentialsInput, type GoogleCredentialsView, type ActivityStatus, type RecordingSettings, type ChangePasswordInput, type One, type PaymentCheck, type SiteInfo,
  type SystemSetting, type SystemSettingInput, type UserInfo, type UserInfoInput,
} from '@tongdai/contracts';
import { getRuntimeConfig, session, systemSetting, tenantApi } from '@tongdai/platform';

const KEY = 'settings';
const data = <T,>(r: One<T>) => r.data;

/** logo_url is relative to the tenant API base (the API cannot know how it is proxied). */
export function siteLogoSrc(logoUrl: string | null): string | null {
  const maDn = session.get().maDn;
  return logoUrl && maDn ? `${tenantBase(getRuntimeConfig().apis.tenant, maDn)}/${logoUrl}` : null;
}

export const useSiteInfo = () =>
  useQuery({ queryKey: [KEY, 'site'], queryFn: () => tenantApi().get('change-info-site').json<One<SiteInfo>>().then(data), staleTime: 60_000 });

export function useSaveSite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => tenantApi().post('change-info-site', { body: form }).json<One<SiteInfo>>().then(data),
    onSuccess: (site) => qc.setQueryData([KEY, 'site'], site),
  });
}

export const useSystemSetting = () =>
  useQuery({ queryKey: [KEY, 'system'], queryFn: () => tenantApi().get('get-system-setting').json<One<SystemSetting>>().then(data) });

export function useSaveSystemSetting() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SystemSettingInput) => tenantApi().put('update-system-setting', { json: input }).json<One<SystemSetting>>().then(data),
    onSuccess: (saved) => {
      qc.setQueryData([KEY, 'system'], saved);
      // Every remote reads the singleton (phone masking, popup, provider); lists refetch masked.
      systemSetting.set(saved);
      void qc.invalidateQueries({ queryKey: ['customers'] });
    },
  });
}

/** The house answers `{ data }`; a bare object is read the same. */
const recordingOf = (body: One<RecordingSettings> | RecordingSettings) => ('data' in body ? body.data : body);

/** The tenant's call recording: which calls, kept how many days (issue 16; setting.view / setting.edit). */
export const useRecordingSettings = () =>
  useQuery({ queryKey: [KEY, 'recording'], queryFn: () => tenantApi().get(RECORDING_API.settings).json<One<RecordingSettings> | RecordingSettings>().then(recordingOf) });

export function useSaveRecordingSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RecordingSettings) => tenantApi().put(RECORDING_API.settings, { json: input }).json<One<RecordingSettings> | RecordingSettings>().then(recordingOf),
    onSuccess: (saved) => qc.setQueryData([KEY, 'recording'], saved),
  });
}

export const usePaymentCheck = () =>
  useQuery({ queryKey: [KEY, 'payment'], queryFn: () => tenantApi().get('payment-check').json<One<PaymentCheck>>().then(data) });

export const useUserInfo = () =>
  useQuery({ queryKey: [KEY, 'me'], queryFn: () => tenantApi().get('user-info-login').json<One<UserInfo>>().then(data) });

export function useSaveUserInfo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UserInfoInput) => tenantApi().put('update-user-info-login', { json: input }).json<One<UserInfo>>().then(data),
    onSuccess: (info) => {
      qc.setQueryData([KEY, 'me'], info);
      const s = session.get();
      // The top bar shows the full name from the session: keep it in step.
      if (s.profile) session.start({ ...s, profile: { ...s.profile, fullName: info.full_name } });
    },
  });
}

export const useChangePassword = () =>
  useMutation({ mutationFn: (input: ChangePasswordInput) => tenantApi().put('change-password', { json: input }).then(() => undefined) });

export function useSetActivityStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (status: ActivityStatus) => tenantApi().put('update-activity-status', { json: { status } }).then(() => status),
    onSuccess: (status) => qc.setQueryData<UserInfo>([KEY, 'me'], (old) => (old ? { ...old, status_activity: status } : old)),
  });
}

/** The tenant's Google service account (the Google Sheet contact source): its e-mail only, never the key. */
export const useGoogleCredentials = () =>
  useQuery({ queryKey: [KEY, 'google'], queryFn: () => tenantApi().get(GOOGLE_CREDENTIALS_API).json<One<GoogleCredentialsView>>().then(data) });

export function useSaveGoogleCredentials() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: GoogleCredentialsInput) => tenantApi().put(GOOGLE_CREDENTIALS_API, { json: input }).json<One<GoogleCredentialsView>>().then(data),
    onSuccess: (view) => qc.setQueryData([KEY, 'google'], view),
  });
}
