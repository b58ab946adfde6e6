const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { importCycles } = require('./import-cycles');

const ROOT = path.resolve(__dirname, '../..');
const remotes = fs.readdirSync(ROOT).filter((d) => d.startsWith('mf-') || d === 'host').map((d) => path.join(d, 'src'));

describe('import circles', () => {
  it.each(remotes)('none inside %s', (src) => {
    expect(importCycles(path.join(ROOT, src))).toEqual([]);
  });

  it('finds a circle through a lazy import (routes → screens → entity → routes)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
    fs.writeFileSync(path.join(dir, 'a.routes.ts'), "export const paths = 1;\nexport const routes = [() => import('./screens')];\n");
    fs.writeFileSync(path.join(dir, 'screens.tsx'), "import { entity } from './a.entity';\nexport const List = entity;\n");
    fs.writeFileSync(path.join(dir, 'a.entity.tsx'), "import { paths } from './a.routes';\nexport const entity = paths;\n");
    fs.writeFileSync(path.join(dir, 'free.ts'), "import type { X } from '@tongdai/ui';\nexport const y = 1;\n");
    const cycles = importCycles(dir);
    expect(cycles).toHaveLength(1);
    expect([...cycles[0]].sort()).toEqual(['a.entity.tsx', 'a.routes.ts', 'screens.tsx']);
  });
});
