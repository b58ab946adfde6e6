import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PORT } from './ports.ts';

/**
 * The Call-IDs of the ng commands (`offer`, `answer`, `delete`, …) this worker's rtpengine received, in
 * order, from its log (scripts/lib/stack.mjs keeps it in tmpdir/tongdai-kamailio-<api port>-…/rtpengine;
 * rtpengine logs each command at its default level: `INFO: [<call-id>]: [control] Received command 'delete'`).
 */
export function rtpengineCommands(command: string): string[] {
  const prefix = `tongdai-kamailio-${API_PORT}-`;
  const logs = readdirSync(tmpdir()).filter((d) => d.startsWith(prefix)).map((d) => join(tmpdir(), d, 'rtpengine', 'rtpengine.log')).filter((f) => existsSync(f));
  const ids: string[] = [];
  for (const log of logs) {
    for (const m of readFileSync(log, 'utf8').matchAll(/INFO: \[([^\]]+)\]: \[control\] Received command '([\w ]+)'/g)) if (m[2] === command) ids.push(m[1]);
  }
  return ids;
}
