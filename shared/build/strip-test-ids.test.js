const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { stripTestIds } = require('./strip-test-ids');

const ROOT = join(__dirname, '..', '..');
/** What the frontends bundle: host, remotes and the shared UI/platform code, tests excluded. */
function productSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : productSources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('production builds carry no test-only attributes', () => {
  it('removes quoted and expression data-testid attributes, nothing else', () => {
    const src = '<div data-testid="list" className="a">\n  <Row\n    data-testid={`row-${r.id}`}\n    onClick={() => go({ id: r.id })}\n  />\n</div>';
    expect(stripTestIds(src)).toBe('<div className="a">\n  <Row\n    onClick={() => go({ id: r.id })}\n  />\n</div>');
    expect(stripTestIds("<a data-testid={p.testId ?? 'x'} href='/'>")).toBe("<a href='/'>");
  });

  it('leaves no data-testid in any source file the frontends bundle (every form of the attribute is handled)', () => {
    const dirs = readdirSync(ROOT).filter((d) => d === 'host' || d.startsWith('mf-')).map((d) => join(ROOT, d, 'src'));
    dirs.push(join(ROOT, 'shared', 'ui', 'src'), join(ROOT, 'shared', 'platform', 'src'));
    const files = dirs.flatMap(productSources);
    // The attribute, or a props object naming it (comments may mention it).
    const attribute = /data-testid\s*=|['"]data-testid['"]/;
    const withIds = files.filter((f) => attribute.test(readFileSync(f, 'utf8')));
    expect(withIds.length).toBeGreaterThan(10);
    expect(withIds.filter((f) => attribute.test(stripTestIds(readFileSync(f, 'utf8'))))).toEqual([]);
  });
});
