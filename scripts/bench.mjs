// npm run bench: see e2e/bench/run.ts.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';

ensureInstalled();
ensureBuilt();
// The wall bench opens WebSockets: Node 20 has them behind a flag (later versions by default).
const env = typeof WebSocket === 'undefined' ? { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-websocket`.trim() } : process.env;
const r = spawnSync(join(ROOT, 'e2e', 'node_modules', '.bin', 'tsx'), [join(ROOT, 'e2e', 'bench', 'run.ts')], { stdio: 'inherit', cwd: join(ROOT, 'e2e'), env });
process.exit(r.status ?? 1);
