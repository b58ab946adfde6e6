import { DEFAULT_TIMEZONE, type PbxConfig } from '@tongdai/contracts';
import type { Queryable } from '../../db/db';
import { holidaysInForce } from '../holidays/holidays.service';
import { getRecordingSettings } from '../settings/settings.service';
import { switchboardRoutes, tenantMaxChannels } from '../telecom/call-path.service';
import { allRows } from './pbx.repository';
import { PBX_DEFS } from './pbx.resources';

type Lists = Omit<PbxConfig, 'tenantId' | 'maDn' | 'timezone' | 'extensions' | 'switchboards' | 'maxChannels' | 'recordingMode' | 'monitorCalls' | 'holidays'>;

/**
 * Everything the routing engine needs about one tenant, read inside the caller's transaction
 * (withTenant), so a save can check the configuration as it would be after the write.
 */
export async function loadPbxConfig(tx: Queryable, tenantId: number, maDn: string): Promise<PbxConfig> {
  const lists: Record<string, unknown[]> = {};
  for (const def of PBX_DEFS) (lists[def.configKey] ??= []).push(...(await allRows(tx, def)));
  const { rows: extensions } = await tx.query<PbxConfig['extensions'][number]>(`select extension, display_name, user_id, voicemail_enabled as voicemail, ring_time,
       voicemail_greeting_id, voicemail_max_seconds, recording_mode
     from subscribers order by extension`);
  const switchboards = await switchboardRoutes(tx);
  const maxChannels = await tenantMaxChannels(tx, tenantId);
  // Call recording (issue 16): the tenant's mode; queues and extensions above carry their own (null: this one).
  const { recording_mode: recordingMode, monitor_calls: monitorCalls } = await getRecordingSettings(tx);
  // Public holidays (issue 39): the days in force around now; the cache's TTL keeps them current.
  const holidays = await holidaysInForce(tx, new Date());
  return { tenantId, maDn, timezone: DEFAULT_TIMEZONE, extensions, ...(lists as unknown as Lists), holidays, switchboards, maxChannels, recordingMode, monitorCalls };
}
