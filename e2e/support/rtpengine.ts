import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stackLogDirs } from './stack-logs.ts';

/**
 * The Call-IDs of the ng commands (`offer`, `answer`, `delete`, …) this worker's rtpengine received, in
 * order, from its log (in the stack's log folder's rtpengine/, stack-logs.ts;
 * rtpengine logs each command at its default level: `INFO: [<call-id>]: [control] Received command 'delete'`).
 */
export function rtpengineCommands(command: string): string[] {
  const logs = stackLogDirs().map((d) => join(d, 'rtpengine', 'rtpengine.log')).filter((f) => existsSync(f));
  const ids: string[] = [];
  for (const log of logs) {
    for (const m of readFileSync(log, 'utf8').matchAll(/INFO: \[([^\]]+)\]: \[control\] Received command '([\w ]+)'/g)) if (m[2] === command) ids.push(m[1]);
  }
  return ids;
}
