import { nationalForm, SYSTEM_UNAVAILABLE_REASON } from '@tongdai/contracts';
import type { CdrRow } from '../cdr/cdr';
import type { CallSwitchboard } from '../trunks/switchboard-directory';
import type { TenantLookup } from './tenant-lookup';

/**
 * A call Kamailio refused (503) because no API planned it — down, restarting, or its database away —
 * as its outbox kept it (sip/kamailio.cfg, ADR 0046): who called whom, from where, when.
 */
export interface UnplannedCall {
  callId: string;
  source: 'trunk' | 'ext';
  from: string;
  fromDomain: string;
  to: string;
  /** The sender's "ip:port" (a carrier's address for a call in). */
  src: string;
  at: Date;
}

export interface UnplannedDeps {
  tenants: Pick<TenantLookup, 'ofDid' | 'ofDomain'>;
  carrierFor(tenantId: number, ip: string, port: number): Promise<CallSwitchboard | null>;
}

/**
 * The record of an unplanned call, for the tenant a plan would have found: the owner of the number
 * called, when one of its own switchboards called in (no record on a tenant's account for anyone
 * else's traffic, as no plan for it: ADR 0036), or the tenant of the extension's domain. Null when
 * no tenant is found. Its result: failed, SIP 503, "Hệ thống tạm thời không xử lý được cuộc gọi".
 */
export async function unplannedRecord(call: UnplannedCall, d: UnplannedDeps): Promise<CdrRow | null> {
  let tenantId: number;
  if (call.source === 'trunk') {
    const tenant = await d.tenants.ofDid(call.to);
    const m = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/.exec(call.src);
    if (!tenant || !m || !(await d.carrierFor(tenant.tenantId, m[1], Number(m[2])))) return null;
    tenantId = tenant.tenantId;
  } else {
    const tenant = await d.tenants.ofDomain(call.fromDomain);
    if (!tenant) return null;
    tenantId = tenant.tenantId;
  }
  const inbound = call.source === 'trunk';
  // An extension dialling a short number calls another extension; anything longer goes out.
  const direction = inbound ? 'inbound' : /^\d{2,6}$/.test(call.to) ? 'internal' : 'outbound';
  return {
    tenant_id: tenantId, call_id: call.callId, caller: call.from, callee: call.to, did: inbound ? nationalForm(call.to) : null,
    direction, route: [], ring_group_id: null, queue_id: null, extension: null, trunk: null,
    started_at: call.at, answered_at: null, ended_at: call.at, duration: 0, billsec: 0,
    disposition: 'FAILED', sip_code: 503, reason: SYSTEM_UNAVAILABLE_REASON,
  };
}
