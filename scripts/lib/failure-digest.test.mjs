import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureDigest } from './failure-digest.mjs';

test('a Playwright failure: its heading, the error under it, and the totals', () => {
  const lines = [
    'Running 100 tests using 2 workers',
    ...Array.from({ length: 300 }, (_, i) => `  ✓  ${i} [chromium] › tests/a.spec.ts:${i}:1 › passes (2.1s)`),
    '  1) [chromium] › tests/pbx-calls.spec.ts:120:3 › the queue plays music ─────',
    '',
    '    Error: expect(received).toBeGreaterThanOrEqual(expected)',
    '    Expected: >= 40',
    '    Received:    39',
    ...Array.from({ length: 40 }, (_, i) => `      ${i} | code`),
    '  1 failed',
    '    [chromium] › tests/pbx-calls.spec.ts:120:3 › the queue plays music',
    '  99 passed (11.5m)',
  ];
  const d = failureDigest(lines);
  assert.ok(d.includes('  1) [chromium] › tests/pbx-calls.spec.ts:120:3 › the queue plays music ─────'));
  assert.ok(d.includes('    Received:    39'));
  assert.equal(d.at(-1), '  99 passed (11.5m)');
  assert.ok(!d.some((l) => l.includes('passes (2.1s)')), 'passed tests are left out');
  assert.ok(d.length <= 1 + 14 + 8);
});

test('a Jest failure, and a budget that keeps the last lines', () => {
  const lines = [];
  for (let k = 0; k < 30; k++) lines.push(`  ● suite › test ${k}`, '', `    expect(received).toBe(expected) ${'x'.repeat(300)}`);
  lines.push('Tests:       30 failed, 10 passed, 40 total');
  const d = failureDigest(lines, { budget: 1000 });
  assert.match(d[0], /^… \(\d+ dòng trước đã lược\)$/);
  assert.equal(d.at(-1), 'Tests:       30 failed, 10 passed, 40 total');
  assert.ok(d.join('\n').length <= 1000 + 40);
  assert.ok(d.every((l) => l.length <= 200));
  assert.ok(!d.some((l) => l.includes('● suite › test 0')), 'the first failures go when the budget is spent');
});

test('colours are dropped; what is under a heading stops at the next suite or console block', () => {
  const lines = ['  ● suite › fails', '    \x1b[31mExpected: 3\x1b[39m', 'PASS src/other.test.ts', '  ● Console', '    console.log', '      noise', 'Tests: 1 failed'];
  const d = failureDigest(lines, { last: 1 });
  assert.deepEqual(d, ['  ● suite › fails', '    Expected: 3', 'Tests: 1 failed']);
});

test('Playwright without projects: "1) file:line › title" is a heading; a ✘ line is kept alone', () => {
  const lines = [
    '  ✘   31 tests/pbx-screens.spec.ts:13:1 › PBX screens (40.9s)',
    '  ✓   30 tests/pbx-media.spec.ts:13:1 › media (57.8s)',
    '  1) tests/pbx-screens.spec.ts:13:1 › PBX screens ',
    '',
    '    Error: expect(locator).toContainText(expected) failed',
    '  1 failed',
    '  99 passed (14.0m)',
  ];
  const d = failureDigest(lines, { last: 1 });
  assert.deepEqual(d, ['  ✘   31 tests/pbx-screens.spec.ts:13:1 › PBX screens (40.9s)', '  1) tests/pbx-screens.spec.ts:13:1 › PBX screens ', '    Error: expect(locator).toContainText(expected) failed', '  1 failed', '  99 passed (14.0m)']);
});
