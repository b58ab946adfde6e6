import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowJs: true, allowImportingTsExtensions: true, resolveJsonModule: false };

const isSource = (file: string) => EXTENSIONS.some((e) => file.endsWith(e)) && !/\.d\.[cm]?ts$/.test(file);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else if (isSource(path)) out.push(path);
  }
  return out;
}

/** A declaration file's code beside it (scripts/lib/x.d.mts → x.mjs), for an import TypeScript resolved to its types. */
function codeOf(file: string): string | null {
  if (isSource(file)) return file;
  for (const [decl, code] of [['.d.mts', '.mjs'], ['.d.ts', '.js'], ['.d.ts', '.ts']] as const) {
    if (file.endsWith(decl) && existsSync(file.slice(0, -decl.length) + code)) return file.slice(0, -decl.length) + code;
  }
  return null;
}

/**
 * The import graph of the files under `dirs` and of every workspace file they reach, as "file → the
 * files it imports" with paths relative to `baseDir`. Every import counts: `import type`, `export …
 * from`, `import()` (lazy and in types) and `require`. The imports are read with TypeScript's own
 * scanner (ts.preProcessFile: no syntax tree) and resolved as TypeScript resolves them (workspace
 * packages through their links to their sources); a file outside the workspace or in node_modules
 * is not followed.
 */
export function importGraph(dirs: string[], baseDir: string): Record<string, string[]> {
  const root = realpathSync(baseDir);
  const graph: Record<string, string[]> = {};
  const queue = dirs.flatMap((d) => filesUnder(d)).map((f) => realpathSync(f));
  const name = (file: string) => relative(root, file);
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    if (graph[name(file)]) continue;
    const imports = new Set<string>();
    graph[name(file)] = [];
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      const found = ts.resolveModuleName(fileName, file, OPTIONS, ts.sys).resolvedModule?.resolvedFileName;
      const target = found && codeOf(resolve(found));
      if (!target || target.includes('/node_modules/') || !target.startsWith(`${root}/`)) continue;
      imports.add(name(target));
      if (!graph[name(target)]) queue.push(target);
    }
    graph[name(file)] = [...imports].sort();
  }
  return graph;
}
