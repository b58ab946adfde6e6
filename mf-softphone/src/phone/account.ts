import { FEATURES, normaliseProvider, type DialTarget, type DirectoryEntry, type One } from '@tongdai/contracts';
import { featureEnabled, publicApi, systemSetting, telecomApi, tenantApi, type DialRequest } from '@tongdai/platform';
import { log, type SipAccount } from '../providers/types';

const status = (err: unknown) => (err as { response?: Response })?.response?.status;

/**
 * The logged-in user's SIP account (GET /sip-account); null when the user has no extension
 * (404). Provider 2 takes its shop key from the telecom API (GET /etelecom/GetShopKey, SPEC §7),
 * keeping the one /sip-account gave if the telecom API does not answer.
 */
export async function fetchSipAccount(): Promise<SipAccount | null> {
  let account: SipAccount;
  try {
    account = (await tenantApi().get('sip-account').json<One<SipAccount>>()).data;
  } catch (err) {
    if (status(err) === 404) return null;
    throw err;
  }
  const provider = normaliseProvider(account.provider ?? systemSetting.get()?.voice_over_internet_protocol);
  account = { ...account, provider };
  if (provider === 2) {
    try {
      account.shop_key = (await telecomApi().get('etelecom/GetShopKey').json<One<string>>()).data;
    } catch (err) {
      log.warn('telecom shop key unavailable', status(err) ?? err);
    }
  }
  return account;
}

/**
 * The tenant's extensions, offered as transfer targets. Provider 2 reads them from the telecom
 * API with the shop key as its bearer (SPEC §7); the others from the tenant API. The shop key is
 * not a session: the public client, so that a refused key never logs the user out.
 */
export async function fetchDirectory(account: SipAccount): Promise<DirectoryEntry[]> {
  if (account.provider === 2 && account.shop_key) {
    const headers = { Authorization: `Bearer ${account.shop_key}` };
    return (await publicApi('telecom').get('etelecom/extensions', { headers }).json<One<DirectoryEntry[]>>()).data;
  }
  return (await tenantApi().get('subscriber-has-user').json<One<DirectoryEntry[]>>()).data.map(({ extension, display_name }) => ({ extension, display_name }));
}

/** SPEC §4: the customer popup needs popupcustomer purchased and unexpired, and show_popup_customer "1". */
export function customerPopupAllowed(): boolean {
  return featureEnabled(FEATURES.popupCustomer) && String(systemSetting.get()?.show_popup_customer ?? '') === '1';
}

/** POST create-histories-call; a back end without it (404) must not break the call. */
export function logCall(phone: string, direction: 'incoming' | 'outgoing'): void {
  tenantApi().post('create-histories-call', { json: { phone, direction } }).catch((err: unknown) => log.warn('call history not saved', status(err) ?? err));
}

/**
 * The number a click-to-call request means (issue 15): as given, or asked of the API for a
 * customer or a call record (the screen never held it when the tenant masks numbers).
 */
export async function dialNumber(request: DialRequest): Promise<string> {
  if (request.kind === 'number') return request.number;
  if (request.kind === 'campaign') return (await tenantApi().get(request.dialPath).json<One<DialTarget>>()).data.number;
  const path = request.kind === 'customer' ? `customers/${request.customerId}/dial` : `reports/call-history/${request.callId}/dial`;
  return (await tenantApi().get(path).json<One<DialTarget>>()).data.number;
}
