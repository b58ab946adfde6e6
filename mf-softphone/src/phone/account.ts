import { FEATURES, normaliseProvider, type One } from '@tongdai/contracts';
import { featureEnabled, systemSetting, telecomApi, tenantApi } from '@tongdai/platform';
import { log, type SipAccount } from '../providers/types';

const status = (err: unknown) => (err as { response?: Response })?.response?.status;

/**
 * The logged-in user's SIP account (GET /sip-account); null when the user has no extension
 * (404). Provider 2 also takes the shop key from the telecom API when it has that endpoint.
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
  if (provider === 2 && !account.shop_key) {
    try {
      const { data } = await telecomApi().get('etelecom/GetShopKey').json<{ data: string | { key?: string; shop_key?: string } }>();
      account.shop_key = typeof data === 'string' ? data : (data.key ?? data.shop_key);
    } catch (err) {
      log.warn('telecom shop key unavailable', status(err) ?? err);
    }
  }
  return account;
}

/** SPEC §4: the customer popup needs popupcustomer purchased and unexpired, and show_popup_customer "1". */
export function customerPopupAllowed(): boolean {
  return featureEnabled(FEATURES.popupCustomer) && String(systemSetting.get()?.show_popup_customer ?? '') === '1';
}

/** POST create-histories-call; a back end without it (404) must not break the call. */
export function logCall(phone: string, direction: 'incoming' | 'outgoing'): void {
  tenantApi().post('create-histories-call', { json: { phone, direction } }).catch((err: unknown) => log.warn('call history not saved', status(err) ?? err));
}
