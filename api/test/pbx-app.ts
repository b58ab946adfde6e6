import { TELECOM_API } from '@tongdai/contracts';
import { demoHeaders, startTestApp, type TestApp } from './helpers';
import { pbxClient, type PbxClient } from '@tongdai/testkit/pbx-kit';

export interface PbxTest {
  t: TestApp;
  admin: Record<string, string>;
  demo: PbxClient;
  staff: PbxClient;
  abc: PbxClient;
  /** Ids of the seeded ring group "Kinh doanh", time group "Giờ hành chính" and inbound route of demo. */
  kinhDoanh: number;
  gioHanhChinh: number;
  seededRoute: number;
  /** An IP-authenticated switchboard of demo (issue 15), for outbound rules. */
  switchboard: number;
}

/** A seeded test app with a /pbx client per demo user and the ids of demo's seeded PBX objects. */
export async function startPbxTest(): Promise<PbxTest> {
  const t = await startTestApp();
  const h = await demoHeaders(t.app);
  const demo = pbxClient(t.app, h.admin);
  const first = async (path: string) => (await demo.get(`${path}?dataType=all`)).json().data[0].id as number;
  const switchboard = await t.app.inject({
    method: 'POST', url: `/t/demo/${TELECOM_API.switchboards}`, headers: h.admin,
    // Nothing is sent to it: a documentation address (TEST-NET-1), public for the host policy (ADR 0043).
    payload: { name: 'Tổng đài thử', carrier: 'viettel', host: '192.0.2.10', register: false },
  });
  return {
    t,
    admin: h.admin,
    demo,
    staff: pbxClient(t.app, h.staff),
    abc: pbxClient(t.app, h.abcAdmin),
    kinhDoanh: await first('/partner/group-inbounds'),
    gioHanhChinh: await first('/partner/time-group'),
    seededRoute: await first('/partner/inbound'),
    switchboard: switchboard.json().data.id as number,
  };
}
