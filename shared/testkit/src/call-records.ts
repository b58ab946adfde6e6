/**
 * Call records as the API's CDR writer takes them, for tests that fill the rollups through the
 * writer: an inbound call answered after `ring` seconds (5) with `talk` seconds (30) of talk,
 * unless the fields say otherwise. A call the PBX answered (VOICEMAIL, AUTO) has its answer and
 * billed seconds too, as the call tracker writes them (ADR 0045); others none. The row type is the caller's (`callRecord<CdrRow>(…)`): the
 * API owns that shape, the kit only fills it.
 */
export interface CallRecordOptions {
  talk?: number;
  ring?: number;
  disposition?: 'ANSWERED' | 'VOICEMAIL' | 'AUTO' | 'NO ANSWER' | 'BUSY' | 'FAILED' | 'BLOCKED';
  [field: string]: unknown;
}

export function callRecord<R>(tenantId: number, callId: string, startedAt: Date, o: CallRecordOptions = {}): R {
  const { talk = 30, ring, ...fields } = o;
  const answered = ['ANSWERED', 'VOICEMAIL', 'AUTO'].includes(fields.disposition ?? 'ANSWERED') ? new Date(startedAt.getTime() + (ring ?? 5) * 1000) : null;
  const ended = new Date((answered ?? startedAt).getTime() + (answered ? talk : (ring ?? 20)) * 1000);
  return {
    tenant_id: tenantId, call_id: callId, caller: '0901000001', callee: '02873000001', did: null, direction: 'inbound', route: [],
    ring_group_id: null, queue_id: null, extension: null, trunk: null, started_at: startedAt, answered_at: answered, ended_at: ended,
    duration: Math.round((ended.getTime() - startedAt.getTime()) / 1000), billsec: answered ? Math.round((ended.getTime() - answered.getTime()) / 1000) : 0,
    disposition: 'ANSWERED', sip_code: answered ? 200 : 487, reason: '', ...fields,
  } as R;
}
