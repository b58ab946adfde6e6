import { BehaviorSubject } from './rx';
import type { Observable } from 'rxjs';
import { maskPhone } from '@tongdai/contracts/lean';
import type { One, SystemSetting } from '@tongdai/contracts';
import { getOrCreateGlobalSingleton } from './global';
import { tenantApi } from './http';
import { session } from './session';
import { storage } from './storage';

/** Tenant data, not a display preference: cleared with the session (storage.clearSession). */
const KEY = 'tongdai.system_setting';

const subject = getOrCreateGlobalSingleton('systemSetting', () => {
  const s = new BehaviorSubject<SystemSetting | null>(storage.getJson<SystemSetting>(KEY));
  session.state$.subscribe((st) => {
    if (!st.token && s.getValue()) s.next(null);
  });
  return s;
});

/** The tenant's system setting (SPEC §3), the same object in the host and every remote. */
export const systemSetting = {
  setting$: subject.asObservable() as Observable<SystemSetting | null>,
  get: (): SystemSetting | null => subject.getValue(),
  /** After login and after the settings screen saves. */
  set(next: SystemSetting): void {
    storage.set(KEY, JSON.stringify(next));
    subject.next(next);
  },
};

/** Re-reads GET /get-system-setting into the singleton. */
export async function refreshSystemSetting(): Promise<SystemSetting> {
  const { data } = await tenantApi().get('get-system-setting').json<One<SystemSetting>>();
  systemSetting.set(data);
  return data;
}

/** A customer phone as the tenant wants it shown: partly hidden with *** when the setting is on. */
export function displayPhone(phone: string): string {
  const s = subject.getValue();
  return s?.hidden_phone_customer === 1 ? maskPhone(phone, s.position_hidden_phone_customer) : phone;
}
