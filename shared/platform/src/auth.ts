import ky from 'ky';
import { tenantBase } from '@tongdai/contracts/lean';
import type { LoginResult, MeResult, One, PaymentCheck, SystemSetting } from '@tongdai/contracts';
import { getRuntimeConfig } from './config';
import { markSigningOut, publicApi, tenantApi } from './http';
import { session } from './session';
import { systemSetting } from './settings';

/**
 * Logs in through the identity API, then reads GET /me (the first role is the kept user,
 * SPEC §3), the payment check and the system setting. Nothing is stored unless all succeed.
 */
export async function login(maDn: string, username: string, password: string): Promise<void> {
  const { data } = await publicApi('identity').post('login/tenant', { json: { ma_dn: maDn, username, password } }).json<One<LoginResult>>();
  const tenant = ky.create({
    prefixUrl: tenantBase(getRuntimeConfig().apis.tenant, data.ma_dn),
    headers: { Authorization: `Bearer ${data.token}` },
  });
  const [me, payment, setting] = await Promise.all([
    tenant.get('me').json<One<MeResult>>(),
    tenant.get('payment-check').json<One<PaymentCheck>>(),
    tenant.get('get-system-setting').json<One<SystemSetting>>(),
  ]);
  const role = me.data.roles[0];
  session.start({
    token: data.token,
    maDn: data.ma_dn,
    user: { name: role?.name ?? '', permissions: role?.permissions.map((p) => ({ name: p.name })) ?? [] },
    profile: { fullName: me.data.full_name, username: me.data.username, tenantName: data.tenant_name },
    payment: payment.data,
  });
  systemSetting.set(setting.data);
}

/** POST /logout revokes the token server-side; the local session ends whatever the answer. */
export async function logout(): Promise<void> {
  const token = session.get().token;
  if (token) markSigningOut(token);
  try {
    await tenantApi().post('logout');
  } finally {
    session.clear();
  }
}

/** Re-reads the payment check (features can be bought or expire while the page is open). */
export async function refreshPayment(): Promise<void> {
  const { data } = await tenantApi().get('payment-check').json<One<PaymentCheck>>();
  session.setPayment(data);
}
