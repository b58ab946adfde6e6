import type { AdapterHooks, PhoneAdapter, SipAccount } from '../providers/types';

/**
 * Providers 1 and 2 use JsSIP; provider 3 and its SDK come in their own chunks, fetched only
 * when selected, so they weigh nothing on the others (docs/adr/0008).
 */
export async function createAdapter(account: SipAccount, hooks: AdapterHooks): Promise<PhoneAdapter> {
  if (account.provider === 3) {
    const [{ createStringeeAdapter }, { loadStringeeSdk }] = await Promise.all([import('../providers/stringee'), import('../providers/stringee-sdk')]);
    return createStringeeAdapter(account, hooks, await loadStringeeSdk());
  }
  const { createJsSipAdapter } = await import(/* webpackChunkName: "jssip" */ '../providers/jssip');
  return createJsSipAdapter(account, hooks);
}
