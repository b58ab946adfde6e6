// npm run promote -- mf-reports 0.2.0 [--dir releases] [--host-contract 1.0.0] [--force]
// npm run promote -- mf-reports --rollback [--dir releases] [--host-contract 1.0.0]
// npm run promote -- mf-reports 0.3.0 --canary 10   (0.3.0 for 10 % of users, sticky per user, beside the current)
// npm run promote -- mf-reports --end-canary         (everyone on the current release again)
// Changes which release of a remote runs: one entry of <dir>/registry.json, one line appended to
// <dir>/registry.history.jsonl (issue 36, docs/adr/0053). Browsers see it on their next load; the
// host is neither rebuilt nor restarted. The release must suit the host's platform contract: by
// default the one host/dist/release.json records (platformContract).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/paths.mjs';
import { endCanary, promote, RegistryError, remoteId, readRegistry, rollback } from './lib/registry.mjs';

function fail(message) {
  console.error(`promote: ${message}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      'host-contract': { type: 'string' },
      rollback: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      canary: { type: 'string' },
      'end-canary': { type: 'boolean', default: false },
    },
  });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
const { values } = args;
const [pkg, version, ...extra] = args.positionals;
const usage = 'usage: npm run promote -- <remote package> <version> [--canary PERCENT] [--dir DIR] [--host-contract X.Y.Z] [--force]\n       npm run promote -- <remote package> --rollback [--dir DIR] [--host-contract X.Y.Z]\n       npm run promote -- <remote package> --end-canary [--dir DIR]';
const noVersion = values.rollback || values['end-canary'];
if (!pkg || extra.length || (noVersion ? version : !version) || (values.rollback && values['end-canary'])) fail(usage);
const canary = values.canary === undefined ? undefined : Number(values.canary);

const cwd = process.env.INIT_CWD ?? process.cwd();
const dir = values.dir ? resolve(cwd, values.dir) : join(ROOT, 'releases');
if (!existsSync(dir)) fail(`no releases folder ${dir} (npm run release -- ${pkg} makes one; --dir names another)`);

// The host that runs: its release.json (the contract it provides, the shared packages' versions it serves).
const hostRelease = join(ROOT, 'host', 'dist', 'release.json');
let host = {};
try {
  host = JSON.parse(readFileSync(hostRelease, 'utf8'));
} catch {
  /* said below when the contract is not given either */
}
let hostContract = values['host-contract'] ?? host.platformContract;
if (!hostContract && !values['end-canary']) fail(`the host's platform contract is unknown: ${hostRelease} is missing or has no platformContract (build the host, or give --host-contract X.Y.Z of the host that runs)`);
// Judged only against the host's own release.json (a contract given by hand says nothing of its packages).
const hostShared = values['host-contract'] ? undefined : host.shared;

const show = (e) => (e ? `${e.version} (${e.entry}, platform ${e.platform})${e.canary ? `; canary ${e.canary.version} for ${e.canary.percent} %` : ''}` : 'none (config.json\'s remote)');
try {
  const before = readRegistry(dir).remotes[remoteId(pkg)] ?? null;
  const change = values['end-canary']
    ? endCanary(dir, { package: pkg })
    : values.rollback
      ? rollback(dir, { package: pkg, hostContract, hostShared, force: values.force })
      : promote(dir, { package: pkg, version, hostContract, hostShared, force: values.force, canary });
  const did = values['end-canary'] ? 'canary ended' : values.rollback ? 'rolled back' : canary !== undefined ? `canary for ${canary} %` : 'promoted';
  console.log(`${change.remote} ${did} (host platform contract ${hostContract}${values.force ? ', --force' : ''}):`);
  console.log(`  before: ${show(change.before ?? before)}`);
  console.log(`  after:  ${show(change.after)}`);
  console.log(`  ${join(dir, 'registry.json')}`);
} catch (e) {
  fail(e instanceof RegistryError ? `[${e.code}] ${e.message}` : String(e instanceof Error ? e.stack : e));
}
