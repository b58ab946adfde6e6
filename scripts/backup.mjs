// npm run backup [-- --out FILE|DIR] [--data-dir DIR] [--port INTERNAL_PORT]
// npm run restore -- <backup.tar.gz> [--data-dir DIR] [--keys-from DIR]
//
// Backups of the embedded PGlite that `npm start` runs on (docs/operations/backups.md): the running
// API takes a consistent snapshot of its data folder (copying the folder of a running PGlite is not a
// backup), and a restore puts one into an empty folder and checks it. On PostgreSQL (DATABASE_URL)
// the backup is pg_dump's, and point-in-time recovery PostgreSQL's own: the page says how.
// The work is api/scripts/pglite-backup.ts, run with the API's tsx in the caller's folder.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './lib/paths.mjs';

const args = process.argv.slice(2);
const command = args[0] === 'restore' ? 'restore' : 'backup';
const rest = args[0] === 'restore' || args[0] === 'backup' ? args.slice(1) : args;

if (process.env.DATABASE_URL && command === 'backup') {
  console.error(`DATABASE_URL được đặt: API chạy trên PostgreSQL. Sao lưu bằng pg_dump (và WAL cho phục hồi theo thời điểm):
xem docs/operations/backups.md. npm run backup chỉ dành cho PGlite nhúng (npm start không có DATABASE_URL).`);
  process.exit(2);
}

// tsx's loader from the API package (the root has no tsx), as scripts/lib/stack.mjs starts the API.
const tsx = createRequire(join(ROOT, 'api', 'package.json')).resolve('tsx');
const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'api', 'scripts', 'pglite-backup.ts'), command, ...rest], {
  // npm runs scripts in the package's folder; INIT_CWD is where the command was typed.
  cwd: process.env.INIT_CWD ?? process.cwd(),
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
