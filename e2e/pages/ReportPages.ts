import { expect, type Page } from '@playwright/test';

/** /call-history and /history-success-call: the list of calls, its filters and rows. */
export class CallHistoryPage {
  constructor(private readonly page: Page, private readonly key: 'call-history' | 'success-calls' = 'call-history') {}

  async open(query = '') {
    await this.page.goto(`/${this.key === 'call-history' ? 'call-history' : 'history-success-call'}${query}`);
    await expect(this.list()).toBeVisible();
  }

  list() { return this.page.getByTestId(`${this.key}-list`); }
  rows() { return this.list().getByTestId('list-row'); }
  row(i: number) { return this.rows().nth(i); }
  error() { return this.list().getByTestId('error-state'); }
  filter(name: 'range' | 'direction' | 'result' | 'extension' | 'department' | 'team' | 'queue') { return this.page.getByTestId(`${name}-filter`); }

  /** A row's shown result, caller → callee, who answered and talk time. */
  async rowText(i: number) {
    const r = this.row(i);
    return {
      result: await r.getByTestId('call-result').innerText(),
      caller: await r.getByTestId('call-caller').innerText(),
      callee: await r.getByTestId('call-callee').innerText(),
      answeredBy: await r.getByTestId('call-answered-by').innerText(),
      talk: await r.getByTestId('call-talk').innerText(),
      direction: await r.getByTestId('call-direction').innerText(),
    };
  }
}
