import { expect, type Page } from '@playwright/test';
import { openScreen } from '../support/navigate.ts';

/** /monitor, the live wall: agents, queue tiles, live calls; ?wall=1 its big-screen mode. */
export class MonitorPage {
  constructor(private readonly page: Page) {}

  async open(query = '') {
    await openScreen(this.page, `/monitor${query}`);
    await expect(this.wall()).toBeVisible();
    await expect(this.page.getByTestId('monitor-agents')).toBeVisible();
  }

  wall() { return this.page.getByTestId('monitor'); }
  agent(extension: string) { return this.wall().locator(`[data-testid="agent-row"][data-extension="${extension}"]`); }
  agentState(extension: string) { return this.agent(extension).getByTestId('agent-state'); }
  agentHandled(extension: string) { return this.agent(extension).getByTestId('agent-handled'); }
  queue(id: number) { return this.wall().locator(`[data-testid="queue-tile"][data-queue-id="${id}"]`); }
  queueFigure(id: number, name: 'waiting-count' | 'longest' | 'offered' | 'answered' | 'abandoned' | 'free' | 'busy') {
    return this.queue(id).getByTestId(`queue-${name}`);
  }
  waitingCaller(id: number) { return this.queue(id).getByTestId('queue-caller'); }
  calls() { return this.wall().getByTestId('call-row'); }
  wallboardToggle() { return this.page.getByTestId('wallboard-toggle'); }

  /** A figure as a number (e.g. before a call, to count deltas on the shared e2e database). */
  async number(locator: ReturnType<Page['getByTestId']>) {
    return Number(await locator.innerText());
  }

  /**
   * From now on, the first time `selector` shows `attr=value` in the page: the browser's clock then,
   * and the server time of the latest real-time event received before it (event → screen latency).
   */
  async watchFor(selector: string, attr: string, value: string) {
    await this.page.evaluate(({ selector, attr, value }) => {
      const w = window as unknown as { __seen: Promise<{ shownAt: number; event: { type: string; at: number; receivedAt: number } | null }>; __tongdai_platform__: { pbxEvents: { subject: { subscribe(fn: (e: { type: string; at: number }) => void): void }; monitor: { subscribe(fn: (e: { type: string; at: number }) => void): void } } } };
      let last: { type: string; at: number; receivedAt: number } | null = null;
      const note = (e: { type: string; at: number }) => { last = { type: e.type, at: e.at, receivedAt: Date.now() }; };
      w.__tongdai_platform__.pbxEvents.subject.subscribe(note);
      w.__tongdai_platform__.pbxEvents.monitor.subscribe(note);
      w.__seen = new Promise((resolve) => {
        const check = () => {
          if (document.querySelector(selector)?.getAttribute(attr) !== value) return false;
          resolve({ shownAt: Date.now(), event: last });
          return true;
        };
        if (check()) return;
        const obs = new MutationObserver(() => { if (check()) obs.disconnect(); });
        obs.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
    }, { selector, attr, value });
    return () => this.page.evaluate(() => (window as unknown as { __seen: Promise<{ shownAt: number; event: { type: string; at: number; receivedAt: number } | null }> }).__seen);
  }
}

/** /dashboard: today's tiles, the agent's own line, the per-hour chart. */
export class DashboardPage {
  constructor(private readonly page: Page) {}

  async open() {
    await openScreen(this.page, '/dashboard');
    await expect(this.page.getByTestId('dash-calls')).toBeVisible();
  }

  tile(name: 'calls' | 'online' | 'waiting' | 'me' | 'chart') { return this.page.getByTestId(`dash-${name}`); }
  value(name: 'calls' | 'online' | 'waiting' | 'me') { return this.page.getByTestId(`dash-${name}-value`); }
  myState() { return this.page.getByTestId('dash-me-state'); }
}
