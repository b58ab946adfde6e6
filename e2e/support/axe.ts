import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

// Evaluated through the DevTools protocol, not added as a <script>: the pages' CSP (ADR 0020)
// rightly refuses an injected inline script, and the check must run under the real policy.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Fluent's focus library puts aria-hidden focusable <i data-tabster-dummy> under <body>: a known false positive (microsoft/tabster#288). */
const EXCLUDE = [['i[data-tabster-dummy]']];

/**
 * The WCAG 2.1 AA rules whose outcome depends on the colours, the only thing a theme changes (the
 * same DOM, names, roles and titles in light and dark): what a second theme's walk needs to check.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * axe-core's WCAG 2.1 AA findings on the page as it is now, one line each, prefixed with `path`.
 * `colours`: only the rules that depend on the colours (COLOUR_RULES), for a theme whose other
 * findings the first theme's walk already gave (a11y.spec: the dark walk took 60 s with every rule).
 */
export async function axeViolations(page: Page, path: string, o: { colours?: boolean } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const only = o.colours ? { type: 'rule', values: COLOUR_RULES } : ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
  const result = await page.evaluate(async ({ exclude, only }) => {
    const w = window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } };
    return w.axe.run({ include: [['html']], exclude }, { runOnly: only });
  }, { exclude: EXCLUDE, only });
  return result.violations.flatMap((v) => v.nodes.map((n) => `${path} ${v.id}: ${n.target.join(' ')} — ${n.failureSummary.replace(/\s+/g, ' ')}`));
}
