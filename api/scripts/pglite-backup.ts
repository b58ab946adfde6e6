// `npm run backup` / `npm run restore` for the embedded PGlite (docs/operations/backups.md). Started
// by scripts/backup.mjs with tsx, in the caller's working directory (relative paths are the caller's).
//
//   backup  [--out FILE|DIR] [--data-dir DIR] [--port INTERNAL_PORT]
//     asks the running API (its internal listener, 127.0.0.1) for a consistent snapshot of its PGlite
//     data folder and writes it as a .tar.gz (default: <repo>/.data/backups/).
//   restore FILE [--data-dir DIR] [--keys-from DIR]
//     restores a snapshot into DIR (default DATA_DIR, else <repo>/.data/pglite), which must hold no
//     database; --keys-from copies the API's key files (sip-password-key, jwt-secret) from where they
//     are kept. Checks that the key there opens the SIP passwords of the backup.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { restorePglite, tarEntries } from '../src/db/backup';
import { BACKUP_HEADER, BACKUP_PATH } from '../src/modules/sip/pglite-backup-route';
import { openSipPassword, sipPasswordKey } from '../src/modules/subscribers/sip-password-box';

const REPO_ROOT = resolve(__dirname, '../..');
/** The API's key files in its data folder (main.ts keptSecret) that a restore needs back. */
const KEY_FILES = ['sip-password-key', 'jwt-secret'] as const;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} cần một giá trị`);
  args.splice(i, 2);
  return value;
}

const dataDirOf = (given?: string) => resolve(given ?? process.env.DATA_DIR ?? join(REPO_ROOT, '.data/pglite'));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function backup(args: string[]): Promise<number> {
  const dataDir = dataDirOf(option(args, '--data-dir'));
  const port = Number(option(args, '--port') ?? process.env.INTERNAL_PORT ?? Number(process.env.API_PORT ?? process.env.PORT ?? 4000) + 1);
  const out = option(args, '--out');
  if (args.length) throw new Error(`không hiểu: ${args.join(' ')}`);
  const secretFile = join(dataDir, 'backup-secret');
  const secret = process.env.BACKUP_SECRET || (existsSync(secretFile) ? readFileSync(secretFile, 'utf8').trim() : '');
  if (!secret) {
    console.error(`Không có ${secretFile}: API chạy trên PGlite ở thư mục này chưa (npm start)? Chỉ định thư mục bằng --data-dir hoặc DATA_DIR.`);
    return 2;
  }
  const started = Date.now();
  const url = `http://127.0.0.1:${port}${BACKUP_PATH}`;
  const res = await fetch(url, { headers: { [BACKUP_HEADER]: secret } }).catch((e: Error) => {
    throw new Error(`API không trả lời ở ${url} (${e.message}): API có đang chạy không? Cổng nội bộ: --port hoặc INTERNAL_PORT`);
  });
  if (!res.ok) {
    console.error(`API từ chối sao lưu: ${res.status} ${await res.text()}`);
    return 1;
  }
  const tarball = Buffer.from(await res.arrayBuffer());
  // What was received is a whole archive of a data folder, or nothing is written.
  const entries = tarEntries(gunzipSync(tarball)).map((e) => e.path);
  if (!entries.includes('PG_VERSION') || !entries.includes('global/pg_control')) throw new Error('bản sao lưu nhận được không phải thư mục dữ liệu PostgreSQL');
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `tongdai-pglite-${Date.now()}.tar.gz`;
  const target = resolve(out && !(existsSync(out) && statSync(out).isDirectory()) && !out.endsWith('/') ? out : join(out ?? join(REPO_ROOT, '.data/backups'), name));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.part`, tarball, { mode: 0o600 });
  renameSync(`${target}.part`, target);
  const sha256 = createHash('sha256').update(tarball).digest('hex');
  console.log(`Đã sao lưu PGlite (${dataDir}) vào ${target}
  ${mb(tarball.length)}, ${entries.length} mục, ${((Date.now() - started) / 1000).toFixed(1)} s, sha256 ${sha256}
  Không có trong bản sao lưu (cất riêng, xem docs/operations/backups.md):
    - khóa ${KEY_FILES.map((f) => join(dataDir, f)).join(', ')} (không đổi: cất một lần, xa bản sao lưu)
    - file ghi âm cuộc gọi (RECORDINGS_DIR; mặc định <DATA_DIR>/recordings, không đặt DATA_DIR thì ${join(REPO_ROOT, '.data/recordings')})
  Chép bản sao lưu ra khỏi máy này.`);
  return 0;
}

async function restore(args: string[]): Promise<number> {
  const dataDir = dataDirOf(option(args, '--data-dir'));
  const keysFrom = option(args, '--keys-from');
  const [file, ...rest] = args;
  if (!file || rest.length) throw new Error('cách dùng: npm run restore -- <bản sao lưu .tar.gz> [--data-dir THƯ_MỤC] [--keys-from THƯ_MỤC_KHÓA]');
  const started = Date.now();
  const restored = await restorePglite(readFileSync(resolve(file)), dataDir);
  console.log(`Đã phục hồi ${basename(file)} vào ${dataDir} (${((Date.now() - started) / 1000).toFixed(1)} s)
  ${restored.migrations} migration, mới nhất ${restored.lastMigration}
${restored.tenants.map((t) => `  doanh nghiệp ${t.ma_dn}: ${t.users} tài khoản, ${t.customers} khách hàng`).join('\n')}`);
  for (const name of KEY_FILES) {
    if (!keysFrom) break;
    const from = join(resolve(keysFrom), name);
    if (!existsSync(from)) continue;
    copyFileSync(from, join(dataDir, name));
    console.log(`  khóa ${name}: chép từ ${from}`);
  }
  // The SIP passwords are sealed with SIP_PASSWORD_KEY, which the backup does not hold: without the same
  // key the API would make a new one and no phone could register again.
  const keyFile = join(dataDir, 'sip-password-key');
  const key = process.env.SIP_PASSWORD_KEY || (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '');
  if (!restored.sealed) {
    console.log('  (không có mật khẩu SIP nào trong bản sao lưu để thử khóa)');
    return 0;
  }
  if (!key) {
    console.error(`  CHƯA XONG: thiếu khóa SIP. Đặt khóa đã cất riêng vào ${keyFile} (hoặc SIP_PASSWORD_KEY) trước khi chạy API, nếu không mọi máy nhánh phải đặt lại mật khẩu SIP.`);
    return 2;
  }
  if (openSipPassword(restored.sealed.tenantId, restored.sealed.value, sipPasswordKey(key)) === null) {
    console.error(`  SAI KHÓA: khóa SIP ở ${process.env.SIP_PASSWORD_KEY ? 'SIP_PASSWORD_KEY' : keyFile} không mở được mật khẩu SIP của bản sao lưu này.`);
    return 1;
  }
  console.log('  khóa SIP mở được mật khẩu SIP của bản sao lưu ✓');
  console.log(`Chạy API trên thư mục này: DATA_DIR=${dataDir} npm start (hoặc chuyển nó về .data/pglite).`);
  return 0;
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'backup') return backup(args);
  if (command === 'restore') return restore(args);
  throw new Error(`lệnh không rõ: ${command ?? '(trống)'}; dùng backup hoặc restore`);
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);
