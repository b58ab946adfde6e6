import { storedForm } from '@tongdai/contracts';
import type { Queryable } from './db';
import { DEMO } from './seed-data';

/** Demo PBX: the DIDs each tenant owns, and for demo a working "call the sales team" route. */
export const DEMO_PBX = {
  demo: {
    numbers: ['02873000001', '02873000002', '02873000003'],
    ringGroup: { name: 'Kinh doanh', extensions: ['101', '102'] },
    timeGroup: { name: 'Giờ hành chính', time_start: '08:00', time_end: '17:30', dow_start: 1, dow_end: 5 },
  },
  abc: { numbers: ['02473000001'] },
} as const;

async function id(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  return (await tx.query<{ id: number }>(sql, params)).rows[0].id;
}

/** Runs as app_system inside seed(), after the tenant's subscribers exist. */
export async function seedPbx(tx: Queryable, tid: number, maDn: string): Promise<void> {
  const pbx = maDn === DEMO.tenants.demo ? DEMO_PBX.demo : maDn === DEMO.tenants.abc ? DEMO_PBX.abc : null;
  if (!pbx) return;
  for (const n of pbx.numbers) {
    await tx.query('insert into pbx_numbers (tenant_id, number, description) values ($1, $2, $3) on conflict do nothing', [tid, storedForm(n), 'Số tổng đài']);
  }
  if (!('ringGroup' in pbx)) return;
  const group = await id(tx, 'insert into pbx_ring_groups (tenant_id, name, extensions, description) values ($1, $2, $3, $4) returning id', [
    tid,
    pbx.ringGroup.name,
    [...pbx.ringGroup.extensions],
    'Nhóm bán hàng đổ chuông cùng lúc',
  ]);
  const tg = pbx.timeGroup;
  const timeGroup = await id(tx, 'insert into pbx_time_groups (tenant_id, name, description) values ($1, $2, $3) returning id', [tid, tg.name, 'Thứ Hai – Thứ Sáu, 08:00 – 17:30']);
  await tx.query('insert into pbx_time_ranges (tenant_id, time_group_id, time_start, time_end, dow_start, dow_end) values ($1, $2, $3, $4, $5, $6)', [
    tid,
    timeGroup,
    tg.time_start,
    tg.time_end,
    tg.dow_start,
    tg.dow_end,
  ]);
  await tx.query(
    `insert into pbx_inbounds (tenant_id, did, destination_type, destination_target, description) values ($1, $2, 'group', $3, $4)`,
    [tid, storedForm(pbx.numbers[0]), String(group), 'Khách gọi tổng đài gặp phòng kinh doanh'],
  );
}
