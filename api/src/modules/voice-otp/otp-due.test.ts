import { DueSignal } from './otp-due';

describe('DueSignal (the media workers\' held asks for OTP calls)', () => {
  it('a wait ends at the next wake, true; without one it ends after its time, false', async () => {
    const due = new DueSignal();
    const woken = due.wait(10_000);
    expect(due.waiting).toBe(1);
    due.wake();
    await expect(woken).resolves.toBe(true);
    expect(due.waiting).toBe(0);
    await expect(due.wait(20)).resolves.toBe(false);
    expect(due.waiting).toBe(0);
  });

  it('a wake between the claim and the wait is not missed: the wait ends at once', async () => {
    const due = new DueSignal();
    const since = due.generation; // read before the claim that found nothing
    due.wake(); // a start commits meanwhile
    const t0 = Date.now();
    await expect(due.wait(10_000, since)).resolves.toBe(true);
    expect(Date.now() - t0).toBeLessThan(1000);
    // With nothing since, it waits.
    await expect(due.wait(20, due.generation)).resolves.toBe(false);
  });

  it('every waiter is woken by one wake; wakeAt wakes them when a retry\'s time comes', async () => {
    const due = new DueSignal();
    const all = [due.wait(10_000), due.wait(10_000), due.wait(10_000)];
    due.wake();
    await expect(Promise.all(all)).resolves.toEqual([true, true, true]);
    const later = due.wait(10_000);
    due.wakeAt(new Date(Date.now() + 30));
    await expect(later).resolves.toBe(true);
    // A time already past wakes at once.
    const past = due.wait(10_000);
    due.wakeAt(new Date(Date.now() - 1000));
    await expect(past).resolves.toBe(true);
  });

  it('a zero wait answers at once', async () => {
    await expect(new DueSignal().wait(0)).resolves.toBe(false);
  });
});
