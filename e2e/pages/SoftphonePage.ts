import { expect, type Page } from '@playwright/test';

/** The softphone in the top bar (mf-softphone). */
export class SoftphonePage {
  constructor(private readonly page: Page) {}

  badge() { return this.page.getByTestId('softphone'); }
  incoming() { return this.page.getByTestId('softphone-incoming'); }
  /** The ringing popup's "Qua hotline … · Nhóm …" line (issue 30). */
  callVia() { return this.incoming().getByTestId('softphone-call-via'); }
  timer() { return this.page.getByTestId('softphone-timer'); }

  /** Registered to the SIP server, no call: the badge says "Sẵn sàng". */
  async expectReady() {
    await expect(this.badge()).toHaveAttribute('data-registered', 'true', { timeout: 15_000 });
    await expect(this.badge()).toHaveText('Sẵn sàng', { timeout: 15_000 });
  }

  /**
   * The badge's state, and its label when given. The label first: an ended or failed call's label shows
   * for END_NOTICE_MS only, while the state stays (ci3 of the twenty-sixth session, at load 15: the state
   * was seen, then the label had already gone back to "Sẵn sàng").
   */
  async expectState(state: string, label?: string) {
    if (label) await expect(this.badge()).toHaveText(label);
    await expect(this.badge()).toHaveAttribute('data-call-state', state);
  }

  /** From now on, every call state the badge takes (quick ones included); read with `statesSeen()`. */
  async watchStates() {
    await this.page.evaluate(() => {
      const badge = document.querySelector('[data-testid="softphone"]') as HTMLElement;
      const seen: string[] = [];
      (window as unknown as { callStatesSeen: string[] }).callStatesSeen = seen;
      new MutationObserver(() => { if (seen.at(-1) !== badge.dataset.callState) seen.push(badge.dataset.callState ?? ''); })
        .observe(badge, { attributes: true, attributeFilter: ['data-call-state'] });
    });
  }

  statesSeen() { return this.page.evaluate(() => (window as unknown as { callStatesSeen: string[] }).callStatesSeen); }

  async dial(number: string) {
    await this.page.getByTestId('softphone-dialpad-toggle').click();
    await this.page.getByTestId('softphone-number').fill(number);
    await this.page.getByTestId('softphone-call').click();
  }

  customerCard() { return this.page.getByTestId('softphone-customer'); }
  /** The card that replaces the customer card when the other side is one of the tenant's extensions. */
  colleagueCard() { return this.page.getByTestId('softphone-colleague'); }
  holdIndicator() { return this.page.getByTestId('softphone-hold'); }

  async toggleHold() { await this.page.getByTestId('softphone-hold-toggle').click(); }

  async transfer(target: string) {
    await this.page.getByTestId('softphone-transfer').click();
    await this.page.getByTestId('softphone-transfer-target').fill(target);
    await this.page.getByTestId('softphone-transfer-submit').click();
  }

  /** "Gần đây": the button, its missed-call counter, the list and its rows (newest first). */
  recentToggle() { return this.page.getByTestId('softphone-recent-toggle'); }
  missedBadge() { return this.page.getByTestId('softphone-recent-missed'); }
  recentList() { return this.page.getByTestId('softphone-recent'); }
  recentRows() { return this.page.getByTestId('softphone-recent-row'); }

  async openRecent() {
    if (!(await this.recentList().isVisible())) await this.recentToggle().click();
    await expect(this.recentList()).toBeVisible();
  }

  async answer() { await this.page.getByTestId('softphone-answer').click(); }
  async reject() { await this.page.getByTestId('softphone-reject').click(); }
  async hangup() { await this.page.getByTestId('softphone-hangup').click(); }

  /**
   * Plays the newest voicemail message of the open panel until the browser has read it (the audio
   * is fetched with the session): its length in seconds must pass `minSeconds`. The panel must stay
   * open throughout (it used to close when the page behind took the focus under load).
   */
  async playFirstVoicemail(minSeconds: number) {
    const audio = this.page.getByTestId('softphone-voicemail-audio');
    await expect(async () => {
      await expect(this.page.getByTestId('softphone-voicemail')).toBeVisible();
      if (!(await audio.count())) await this.page.getByTestId('softphone-voicemail-row').first().getByTestId('softphone-voicemail-play').click();
      await expect(audio).toHaveAttribute('src', /^blob:/, { timeout: 5_000 });
      await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration), { timeout: 5_000 }).toBeGreaterThan(minSeconds);
    }).toPass({ timeout: 40_000 });
  }
}
