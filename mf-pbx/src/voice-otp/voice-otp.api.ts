import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OTP_TENANT_API, type One, type OtpKey, type OtpNumber, type OtpStats, type OtpTestCall, type Paged } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, reversedRange, saveBlob } from '@tongdai/ui';

/** The voice-OTP resources on the tenant surface (OTP_TENANT_API). */
export const otpRequestResource = crudResource({ scope: 'voice-otp', name: 'request', base: OTP_TENANT_API.verifications, client: tenantApi });
export const otpKeyResource = crudResource({ scope: 'voice-otp', name: 'key', base: OTP_TENANT_API.keys, client: tenantApi });

/**
 * "Xuất Excel" on /voice-otp/list: every request the list's filters select (they live in the URL), as
 * the API writes them (masked numbers, Vietnam time), saved as a file.
 */
export async function downloadOtpList(format: 'xlsx' | 'csv' = 'xlsx'): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  params.delete('page');
  const blob = await tenantApi().get(OTP_TENANT_API.export(format), { searchParams: params, timeout: false }).blob();
  saveBlob(blob, `yeu-cau-otp.${format}`);
}

/** The answered rate per day for the list's dates and key (the chart above the list). */
export function useOtpStats(filters: Record<string, string>) {
  return useQuery({
    queryKey: ['voice-otp', 'request', 'stats', filters],
    queryFn: () => tenantApi().get(OTP_TENANT_API.stats, { searchParams: filters }).json<One<OtpStats>>().then((r) => r.data),
    // ?from= after ?to= typed into the URL: nothing asked (the API would answer 400).
    enabled: !reversedRange(filters.from, filters.to),
  });
}

/** Every key (the list's key filter). */
export function useOtpKeys() {
  return useQuery({ queryKey: ['voice-otp', 'key', 'all'], queryFn: () => tenantApi().get(OTP_TENANT_API.keys).json<Paged<OtpKey>>().then((r) => r.data) });
}

export function useRevokeKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().post(OTP_TENANT_API.revoke(id)).json<One<OtpKey>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['voice-otp'] }),
  });
}

/** A new webhook signing secret for the key, answered once. */
export function useRotateWebhookSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => tenantApi().post(OTP_TENANT_API.webhookSecret(id)).json<One<{ webhook_secret: string }>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['voice-otp', 'key'] }),
  });
}

/** "Gọi thử": a test OTP call to a number; the list shows it as it goes. */
export function useOtpTestCall() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (phone: string) => tenantApi().post(OTP_TENANT_API.testCall, { json: { phone } }).json<One<OtpTestCall>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['voice-otp', 'request'] }),
  });
}

export function useOtpNumbers() {
  return useQuery({ queryKey: ['voice-otp', 'numbers'], queryFn: () => tenantApi().get(OTP_TENANT_API.numbers).json<One<OtpNumber[]>>().then((r) => r.data) });
}

export function useSetOtpNumber() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (x: { id: number; otp_enabled: boolean }) => tenantApi().put(OTP_TENANT_API.number(x.id), { json: { otp_enabled: x.otp_enabled } }).json<One<OtpNumber>>(),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['voice-otp', 'numbers'] }),
  });
}
