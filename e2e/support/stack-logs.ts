import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PORT } from './ports.ts';

/** This worker's stack's SIP log folders (scripts/lib/stack.mjs keeps them in tmpdir/tongdai-kamailio-<api port>-…). */
export function stackLogDirs(): string[] {
  const prefix = `tongdai-kamailio-${API_PORT}-`;
  return readdirSync(tmpdir()).filter((d) => d.startsWith(prefix)).map((d) => join(tmpdir(), d));
}
