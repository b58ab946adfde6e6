/**
 * The ringtone, synthesised with Web Audio (no file to ship): 425 Hz + 480 Hz, 1 s on, 2 s off.
 * play / stop / reset as SPEC §4 names them; reset also rewinds the cadence.
 */
export class Ringtone {
  private ctx: AudioContext | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  playing = false;

  play(): void {
    if (this.playing) return;
    const AC = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!AC) return; // no audio output at all: SPEC §8 says log only, the caller logs
    this.playing = true;
    this.ctx ??= new AC();
    void this.ctx.resume().catch(() => undefined);
    const burst = () => {
      const ctx = this.ctx;
      if (!ctx) return;
      const gain = ctx.createGain();
      gain.gain.value = 0.08;
      gain.connect(ctx.destination);
      for (const f of [425, 480]) {
        const osc = ctx.createOscillator();
        osc.frequency.value = f;
        osc.connect(gain);
        osc.start();
        osc.stop(ctx.currentTime + 1);
      }
    };
    burst();
    this.timer = setInterval(burst, 3000);
  }

  stop(): void {
    this.playing = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    void this.ctx?.suspend().catch(() => undefined);
  }

  reset(): void {
    this.stop();
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }
}
