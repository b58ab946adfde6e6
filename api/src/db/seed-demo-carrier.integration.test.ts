import { storedForm } from '@tongdai/contracts';
import { openSwitchboardPassword } from '../modules/subscribers/subscribers.service';
import type { Db } from './db';
import { DEMO_CARRIER, demoCarrierFromEnv, seedDemoCarrier } from './seed-demo-carrier';
import { openPgliteFromImage } from '../../test/pglite-image';

/** npm start's demo carrier link, on the default engine (PGlite), seeded twice as every start does. */
describe('seedDemoCarrier', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPgliteFromImage('seeded');
  }, 180_000); // the run's seeded PGlite image (test/pglite-image.ts): made by the first suite that asks (migrations and seed, 72 s in a loaded CI run), then a start from it
  afterAll(() => db.close());

  it('reads the link from the environment only when it is complete', () => {
    expect(demoCarrierFromEnv({ DEMO_CARRIER: '127.0.0.1:4094', DEMO_CARRIER_USER: 'u', DEMO_CARRIER_PASSWORD: 'p' })).toEqual({ host: '127.0.0.1', port: 4094, user: 'u', password: 'p' });
    expect(demoCarrierFromEnv({ DEMO_CARRIER: '127.0.0.1:4094', DEMO_CARRIER_USER: 'u', DEMO_CARRIER_PASSWORD: 'p', DEMO_CARRIER_MAX_CHANNELS: '2000', DEMO_CARRIER_REGISTER: '0' })).toEqual({ host: '127.0.0.1', port: 4094, user: 'u', password: 'p', maxChannels: 2000, register: false });
    expect(demoCarrierFromEnv({ DEMO_CARRIER: '127.0.0.1:4094', DEMO_CARRIER_USER: 'u' })).toBeNull();
    expect(demoCarrierFromEnv({})).toBeNull();
  });

  it('seeds one switchboard, hotline, inbound route and two outbound rules, and follows a moved simulator', async () => {
    const hotline = storedForm(DEMO_CARRIER.hotline);
    const first = await seedDemoCarrier(db, { host: '127.0.0.1', port: 4094, user: '02873001234', password: 'first-pass' });
    const again = await seedDemoCarrier(db, { host: '127.0.0.1', port: 5094, user: '02873001234', password: 'second-pass', maxChannels: 2000 });
    expect(again).toBe(first);
    await db.withSystem(async (tx) => {
      const sbs = (await tx.query<{ id: number; tenant_id: number; host: string; port: number; register: boolean; auth_user: string; auth_password_sealed: string; max_channels: number }>('select * from telecom_switchboards')).rows;
      expect(sbs).toHaveLength(1);
      expect(sbs[0]).toMatchObject({ id: first, host: '127.0.0.1', port: 5094, register: true, auth_user: '02873001234', max_channels: 2000 });
      expect(openSwitchboardPassword(sbs[0].tenant_id, sbs[0].auth_password_sealed)).toBe('second-pass');
      expect((await tx.query('select max_channels from tenants where id = $1', [sbs[0].tenant_id])).rows[0]).toEqual({ max_channels: 2000 });
      const numbers = (await tx.query('select number, switchboard_id from pbx_numbers where switchboard_id is not null')).rows;
      expect(numbers).toEqual([{ number: hotline, switchboard_id: first }]);
      const inbound = (await tx.query("select i.destination_type, g.name from pbx_inbounds i join pbx_ring_groups g on g.id::text = i.destination_target where i.did = $1", [hotline])).rows;
      expect(inbound).toEqual([{ destination_type: 'group', name: 'Kinh doanh' }]);
      const rules = (await tx.query('select pattern, switchboard_ids, caller_id from pbx_outbound_rules order by pattern')).rows;
      expect(rules).toEqual([
        { pattern: '02XXXXXXXXX', switchboard_ids: [first], caller_id: hotline },
        { pattern: '0[35789]XXXXXXXX', switchboard_ids: [first], caller_id: hotline },
      ]);
    });
  });
});
