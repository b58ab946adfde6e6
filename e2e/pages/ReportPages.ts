import { expect, type Page } from '@playwright/test';
import { openScreen } from '../support/navigate.ts';

/** /call-history and /history-success-call: the list of calls, its filters and rows. */
export class CallHistoryPage {
  constructor(private readonly page: Page, private readonly key: 'call-history' | 'success-calls' = 'call-history') {}

  async open(query = '') {
    await openScreen(this.page, `/${this.key === 'call-history' ? 'call-history' : 'history-success-call'}${query}`);
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

/** /history-cdr-by-exten and /history-by-department-team: the call-history filters, a table of figures, and (per team) charts. */
export class SummaryPage {
  constructor(private readonly page: Page, private readonly key: 'by-extension' | 'by-department-team') {}

  async open(query = '') {
    await openScreen(this.page, `/${this.key === 'by-extension' ? 'history-cdr-by-exten' : 'history-by-department-team'}${query}`);
    await expect(this.screen()).toBeVisible();
  }

  screen() { return this.page.getByTestId(this.key); }
  range() { return this.page.getByTestId('range-filter'); }
  /** The call-history filters the summaries share (hidden when the viewer may not use them). */
  filter(name: 'direction' | 'result' | 'extension' | 'department' | 'team' | 'queue') { return this.page.getByTestId(`${name}-filter`); }
  /** The row of an extension (by-extension) or of a department/team by its name. */
  row(name: string) {
    // An extension's own cell, exactly: a row's text runs its cells together, so 101's "10" calls
    // and "2" missed once read as "102".
    if (this.key === 'by-extension') {
      return this.screen().getByTestId('summary-row').filter({ has: this.page.getByTestId('summary-extension').getByText(name, { exact: true }) });
    }
    return this.screen().getByTestId(/^(department|team)-row$/).filter({ hasText: name }).first();
  }

  /** A row's figures as shown. */
  async figures(name: string) {
    const r = this.row(name);
    const text = (id: string) => r.getByTestId(id).innerText();
    return {
      calls: await text('fig-calls'), answered: await text('fig-answered'), missed: await text('fig-missed'), busy: await text('fig-busy'),
      talk: await text('fig-talk'), avgTalk: await text('fig-avg-talk'), rate: await text('fig-rate'),
    };
  }
}
