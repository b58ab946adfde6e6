// What a failed step said, short enough to stand at the very end of `npm test`'s output.
// CI shows only the tail of a run: beside the other lanes a failed step's report scrolls far up
// (the e2e suite ends minutes before the API's suites), and the tail then says only which step
// failed. The digest repeats each failure's heading with the first lines under it (Playwright's
// "  1) [chromium] › spec:line › title", Jest's "● suite › test") and the step's last lines (the
// counts), within a budget of characters.

// Playwright's "  1) [project] › file:line" or, with no projects, "  1) file:line"; Jest's "● suite › test".
const HEADING = /^\s*(\d+\) (\[|\S+:\d+:\d+ ›)|● (?!Console))/;
/** A line of its own worth keeping (Playwright's list line of a failed test); nothing under it is its. */
const ALONE = /^\s*✘ /;
/** Where what is under a heading ends: Jest's next suite or its console block. */
const ENDS = /^\s*● Console|^(PASS|FAIL) /;

/**
 * @param {string[]} lines the step's output, oldest first
 * @param {{ under?: number, last?: number, width?: number, budget?: number }} [o]
 * @returns {string[]}
 */
export function failureDigest(raw, { under = 14, last = 8, width = 200, budget = 4500 } = {}) {
  // Colours (Jest's code frames) cost characters and say nothing in CI's text.
  const lines = raw.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
  const cut = (s) => (s.length > width ? `${s.slice(0, width - 1)}…` : s);
  const picked = new Set();
  lines.forEach((line, i) => {
    if (ALONE.test(line)) picked.add(i);
    if (!HEADING.test(line)) return;
    picked.add(i);
    for (let j = i + 1, n = 0; j < lines.length && n < under; j++) {
      if (HEADING.test(lines[j]) || ALONE.test(lines[j]) || ENDS.test(lines[j])) break;
      if (lines[j].trim() === '') continue;
      picked.add(j);
      n++;
    }
  });
  const tail = lines.map((l, i) => [l, i]).filter(([l]) => l.trim() !== '').slice(-last);
  for (const [, i] of tail) picked.add(i);
  const out = [...picked].sort((a, b) => a - b).map((i) => cut(lines[i]));
  // Over budget: the last lines count most (the headings of the last failures and the totals).
  let size = 0;
  let from = out.length;
  while (from > 0 && size + out[from - 1].length + 1 <= budget) size += out[--from].length + 1;
  return from > 0 ? [`… (${from} dòng trước đã lược)`, ...out.slice(from)] : out;
}
