import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { importGraph } from '../../test/import-graph';

/**
 * No import circle anywhere in the workspace's code (issue 39, ADR 0047). A circle is a strongly
 * connected set of files: each reaches every other through imports. Every import counts, `import
 * type` and `import()` included: a type-only edge does not change load order, but it is a
 * dependency of the design all the same (the API's 26-file circle was held shut by the kernel's type
 * imports of modules). A circle is broken by moving the shared piece down to the file both sides may
 * import, or by letting the lower side declare the small interface it needs.
 */
const ROOT = resolve(__dirname, '../../..');
const TREES = [
  'api/src', 'media/src', 'e2e', 'demo-carrier/src', 'host/src', 'mf-crm/src', 'mf-pbx/src', 'mf-reports/src', 'mf-softphone/src', 'mf-survey/src',
  'shared/contracts/src', 'shared/platform/src', 'shared/testkit/src', 'shared/ui/src',
];

/**
 * Each circle of the graph, as its files in order around one loop ("a → b → c → a"): the strongly
 * connected components of more than one file, or of one file importing itself (Tarjan).
 */
function circles(graph: Record<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph[v] ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph[v]?.includes(v)) found.push(component);
  };
  for (const v of Object.keys(graph).sort()) if (!index.has(v)) visit(v);
  return found.map((component) => loopOf(graph, new Set(component))).sort();
}

/** One loop through a circle's files, from its first file by name, with the size of the whole circle. */
function loopOf(graph: Record<string, string[]>, files: Set<string>): string {
  const start = [...files].sort()[0];
  // Breadth first from start back to start, inside the circle: the shortest loop through it.
  const from = new Map<string, string>();
  const queue = [start];
  let end: string | null = null;
  while (queue.length && end === null) {
    const v = queue.shift()!;
    for (const w of graph[v] ?? []) {
      if (!files.has(w)) continue;
      if (w === start) {
        end = v;
        break;
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  const loop = [start];
  for (let v = end!; v !== start; v = from.get(v)!) loop.splice(1, 0, v);
  return `${files.size} files in a circle, one loop: ${[...loop, start].join(' → ')}`;
}

/** The API's kernel: what every module may import, and which imports no module (STYLE.md "One API kernel"). */
const KERNEL = /^api\/src\/(deps\.ts$|http\/|db\/|security\/)/;
/**
 * Kernel files that do import modules, declared: the seeds assemble demo data through the modules'
 * services (like the composition root), and migration 0016's data step seals the SIP passwords
 * with subscribers/sip-password-box. Tests assemble what they test.
 */
const KERNEL_ASSEMBLERS = /^api\/src\/db\/(seed[^/]*|migrate)\.ts$|\.test\.tsx?$/;

/** "kernel file → module file" for each import from the kernel into api/src/modules, types included. */
function kernelImportsOfModules(graph: Record<string, string[]>): string[] {
  return Object.entries(graph)
    .filter(([file]) => KERNEL.test(file) && !KERNEL_ASSEMBLERS.test(file))
    .flatMap(([file, imports]) => imports.filter((i) => i.startsWith('api/src/modules/')).map((i) => `${file} → ${i}`));
}

describe('import circles', () => {
  let graph: Record<string, string[]>;
  beforeAll(async () => {
    graph = importGraph(TREES.map((t) => join(ROOT, t)), ROOT);
  }, 120_000);

  it('no package of the workspace has an import circle', () => {
    // Every tree was read (a wrong path would read nothing and find no circle).
    expect(TREES.filter((t) => !Object.keys(graph).some((f) => f.startsWith(`${t}/`)))).toEqual([]);
    expect(Object.keys(graph).length).toBeGreaterThan(800);
    expect(circles(graph)).toEqual([]);
  });

  it('the API kernel (deps.ts, http/, db/, security/) imports no module, but for the declared assemblers', () => {
    expect(graph['api/src/http/guards.ts']).toContain('api/src/http/errors.ts');
    expect(kernelImportsOfModules(graph)).toEqual([]);
    expect(kernelImportsOfModules({ 'api/src/http/x.ts': ['api/src/modules/a/a.service.ts', 'api/src/db/sql.ts'], 'api/src/db/seed.ts': ['api/src/modules/a/a.service.ts'] })).toEqual([
      'api/src/http/x.ts → api/src/modules/a/a.service.ts',
    ]);
  });

  it('the check sees a circle, type-only and lazy imports included, and names its files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tongdai-circles-'));
    try {
      mkdirSync(join(dir, 'kernel'));
      const files: Record<string, string> = {
        'kernel/deps.ts': "import type { Hub } from '../hub';\nexport interface Deps { hub: Hub }\n",
        'hub.ts': "import { guard } from './kernel/guards';\nexport interface Hub { on(): void }\nexport const g = guard;\n",
        'kernel/guards.ts': "import type { Deps } from './deps';\nexport const guard = (d: Deps) => d;\n",
        'lazy.ts': "export const load = () => import('./lazy-back');\n",
        'lazy-back.ts': "import { load } from './lazy';\nexport const again = load;\n",
        'free.ts': "import { guard } from './kernel/guards';\nexport const f = guard;\n",
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const found = circles(importGraph([dir], dir));
      expect(found).toEqual([
        '2 files in a circle, one loop: lazy-back.ts → lazy.ts → lazy-back.ts',
        '3 files in a circle, one loop: hub.ts → kernel/guards.ts → kernel/deps.ts → hub.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
