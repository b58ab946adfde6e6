import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import type { RecordingStore } from './recording-store';
import { sweepRecordings } from './recordings';

export const RECORDING_SWEEP_MS = 3_600_000;

/**
 * Runs the retention sweep when the server is ready and every `everyMs` after (hourly), one sweep
 * at a time; the timer does not keep the process alive, and closing the server stops it and waits
 * for a sweep under way (so the database is not closed beneath it).
 */
export function scheduleRecordingSweep(app: FastifyInstance, db: Db, store: RecordingStore, everyMs = RECORDING_SWEEP_MS): void {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const run = () => {
    if (running || closed) return;
    running = sweepRecordings(db, store, new Date(), (err) => app.log.warn({ err }, 'expired recording file not deleted'))
      .then((n) => void (n && app.log.info({ deleted: n }, 'expired call recordings deleted')))
      .catch((err: unknown) => app.log.error({ err }, 'recording retention sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearInterval(timer);
    await running;
  });
}
