import type { Page } from '@playwright/test';

/** The shell's alarm bar at the top of every screen (issue 41: the recordings' storage full, for the tenant's admins). */
export class AlarmBar {
  constructor(private readonly page: Page) {}

  recordingStorage() {
    return this.page.getByTestId('recording-storage-alarm');
  }
}
