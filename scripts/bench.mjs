// npm run bench: see e2e/bench/run.ts.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled } from './lib/build.mjs';
import { ROOT } from './lib/paths.mjs';

ensureInstalled();
ensureBuilt();
const r = spawnSync(join(ROOT, 'e2e', 'node_modules', '.bin', 'tsx'), [join(ROOT, 'e2e', 'bench', 'run.ts')], { stdio: 'inherit', cwd: join(ROOT, 'e2e') });
process.exit(r.status ?? 1);
