import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * A module reaches another only through that module's service: its repositories (SQL, table
 * shapes) are its own. Any file of api/src outside modules/<m>/ that imports modules/<m>/*.repository
 * is listed here (type-only imports too: a row type is the table's shape).
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
