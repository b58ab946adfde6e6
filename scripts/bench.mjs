// npm run bench: see e2e/bench/run.ts. `npm run bench -- wall`: only the live wall's figure (BENCH_ONLY=wall);
// `npm run bench -- carrier`: only the calls out through a switchboard with digest at the carrier.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';

ensureInstalled();
const only = process.argv[2] ? { BENCH_ONLY: process.argv[2] } : {};
// The wall's and the carrier's figures open no screen: any build of the frontends serves.
if (!only.BENCH_ONLY) ensureBuilt();
// The wall bench opens WebSockets: Node 20 has them behind a flag (later versions by default).
const env = { ...process.env, ...only, ...(typeof WebSocket === 'undefined' ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-websocket`.trim() } : {}) };
const r = spawnSync(join(ROOT, 'e2e', 'node_modules', '.bin', 'tsx'), [join(ROOT, 'e2e', 'bench', 'run.ts')], { stdio: 'inherit', cwd: join(ROOT, 'e2e'), env });
process.exit(r.status ?? 1);
