import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * A module reaches another only through that module's service (modules/<m>/<m>.service.ts, or the
 * module's index.ts where it is a library such as routing/): everything else in its folder is its
 * own. Helpers every module needs live in the kernel (http/, db/, security/), never borrowed from
 * a module's internals (issue 11 §2).
 * - Repositories (SQL, table shapes): no file of api/src outside modules/<m>/ imports one, tests
 *   and type-only imports included (a row type is the table's shape).
 * - Any other internal: no source file of another module imports it (files outside modules/, the
 *   composition root main.ts/server.ts/surfaces.ts and the seeds, assemble modules). Allowed: `import type` (erased
 *   at build, so no load order or runtime coupling; the type is part of what the service hands out),
 *   test files (*.test.ts assemble a module with its neighbours' parts, e.g. sip/internal-server),
 *   and the DECLARED exceptions below.
 */
const SRC = resolve(__dirname, '..');
const MODULES = join(SRC, 'modules');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The module a file belongs to ('' outside modules/). */
const moduleOf = (file: string): string => {
  const rel = relative(MODULES, file);
  return rel.startsWith('..') ? '' : rel.split(sep)[0];
};

/**
 * The call plane's assembly, declared: "importer → imported module" with the reason.
 * - sip/call-routing.ts wires Kamailio's event socket, the media worker's continuations, the CDR
 *   call tracker, the PBX configuration cache and the realtime hub into one running call plane:
 *   assembling those parts is its job (calls/ was split into them by design, issue 11 §2).
 * - cdr/call-tracker.ts reads a Kamailio plan's media-unavailable marker (MEDIA_UNAVAILABLE): the
 *   tracker follows the plans Kamailio is given. Declared rather than moved while cdr/ is changed for
 *   the reports (to go through a kamailio/ service face when that settles).
 */
export const DECLARED_EXCEPTIONS: Record<string, string[]> = {
  [join('modules', 'sip', 'call-routing.ts')]: ['cdr', 'kamailio', 'media', 'pbx', 'realtime'],
  [join('modules', 'cdr', 'call-tracker.ts')]: ['kamailio'],
};

const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path);

/** Another module's public face: its service, or the module folder itself (index.ts). */
const isPublicFace = (target: string): boolean => /\.service$/.test(target) || relative(MODULES, target).split(sep).length === 1;

/** "file → imported path" for every value import of another module's internals from a source (not test) file. */
function crossModuleImports(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const own = moduleOf(path);
    if (isTest(path) || !own) continue;
    for (const m of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\b[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      if (m[2]) continue; // `import type … from`
      const spec = m[3] ?? m[4];
      const target = resolve(dirname(path), spec);
      const owner = moduleOf(target);
      if (!owner || owner === own || isPublicFace(target)) continue;
      if (DECLARED_EXCEPTIONS[relative(SRC, path)]?.includes(owner)) continue;
      found.push(`${relative(SRC, path)} → ${spec}`);
    }
  }
  return found;
}

/** "file → imported path" for every import of another module's repository in `files`. */
function crossRepositoryImports(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const m of text.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(path), m[1]);
      if (!/\.repository$/.test(target)) continue;
      const owner = moduleOf(target);
      if (owner && owner !== moduleOf(path)) found.push(`${relative(SRC, path)} → ${m[1]}`);
    }
  }
  return found;
}

describe('module boundaries', () => {
  it('no file imports another module’s repository (only its service)', () => {
    const files = sources(SRC).filter((p) => p !== __filename).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(50);
    expect(crossRepositoryImports(files)).toEqual([]);
  });

  it('no source file imports another module’s internals (only its service), but for the declared call-plane wiring', () => {
    const files = sources(SRC).filter((p) => p !== __filename).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(crossModuleImports(files)).toEqual([]);
  });

  it('the internals check sees value imports of internals, and allows services, types, tests and the declared exceptions', () => {
    const customers = join(MODULES, 'customers', 'customers.routes.ts');
    const routing = join(MODULES, 'sip', 'call-routing.ts');
    expect(
      crossModuleImports([
        { path: customers, text: "import { maskCustomer } from '../settings/phone-masking';\nimport { createCustomersService } from './customers.service';" },
        { path: customers, text: "import {\n  hashPassword,\n} from '../auth/password';\nexport { x } from '../pbx/config';" },
        { path: customers, text: "import { a } from '../settings/settings.service';\nimport type { CallEventHub } from '../realtime/call-event-hub';\nimport { findLoop } from '../routing';" },
        { path: join(MODULES, 'customers', 'x.test.ts'), text: "import { buildInternalServer } from '../sip/internal-server';" },
        { path: routing, text: "import { Continuations } from '../media/continuation';\nimport { openSipPassword } from '../subscribers/sip-password-box';" },
      ]),
    ).toEqual([
      `modules${sep}customers${sep}customers.routes.ts → ../settings/phone-masking`,
      `modules${sep}customers${sep}customers.routes.ts → ../auth/password`,
      `modules${sep}customers${sep}customers.routes.ts → ../pbx/config`,
      `modules${sep}sip${sep}call-routing.ts → ../subscribers/sip-password-box`,
    ]);
  });

  it('the check sees such an import, and lets a module use its own repository', () => {
    const roles = join(MODULES, 'roles', 'roles.service.ts');
    const guards = join(SRC, 'http', 'guards.ts');
    expect(
      crossRepositoryImports([
        { path: roles, text: "import { setUserPassword } from '../accounts/accounts.repository';\nimport * as repo from './roles.repository';" },
        { path: guards, text: "import type { X } from '../modules/settings/settings.repository';" },
        { path: roles, text: "import { setUserPassword } from '../accounts/accounts.service';" },
      ]),
    ).toEqual([`modules${sep}roles${sep}roles.service.ts → ../accounts/accounts.repository`, `http${sep}guards.ts → ../modules/settings/settings.repository`]);
  });
});
