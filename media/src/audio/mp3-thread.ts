import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** One recording's MP3 encoder, running on the process's encoder thread (mp3-encoder.thread.mjs). */
export interface Mp3Stream {
  /** Hands the next stereo samples to the encoder; never blocks the caller's event loop. */
  encode(left: Int16Array, right: Int16Array): void;
  /** The whole MP3 once every sample handed over is encoded (rejects if the thread died). */
  finish(): Promise<Buffer>;
}

type Reply = { id: number; mp3: Uint8Array };

/**
 * The thread all recordings of this process share, started with the first recording. Referenced
 * only while a recording is open: an idle worker process may still exit. A thread that dies takes
 * the recordings then open with it (their finish() rejects; the calls go on) and the next
 * recording starts a new one.
 */
class EncoderThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private open = 0;
  private readonly waiting = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(join(__dirname, 'mp3-encoder.thread.mjs'), { execArgv: [] });
    w.on('message', (r: Reply) => {
      const p = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      p?.resolve(Buffer.from(r.mp3.buffer, r.mp3.byteOffset, r.mp3.byteLength));
    });
    const died = (e: Error) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.open = 0;
      for (const p of this.waiting.values()) p.reject(e);
      this.waiting.clear();
    };
    w.on('error', died);
    w.on('exit', (code) => died(new Error(`MP3 encoder thread exited (${code})`)));
    w.unref();
    this.worker = w;
    return w;
  }

  private hold(delta: number): void {
    this.open = Math.max(0, this.open + delta);
    if (this.open > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  stream(rate: number, kbps: number): Mp3Stream {
    const id = this.nextId++;
    const w = this.thread();
    w.postMessage({ op: 'open', id, rate, kbps });
    this.hold(1);
    let finished: Promise<Buffer> | null = null;
    return {
      encode: (left, right) => {
        if (finished || this.worker !== w) return;
        w.postMessage({ op: 'pcm', id, left, right }, [left.buffer, right.buffer] as ArrayBuffer[]);
      },
      finish: () =>
        (finished ??= new Promise<Buffer>((resolve, reject) => {
          if (this.worker !== w) return reject(new Error('MP3 encoder thread gone'));
          this.waiting.set(id, { resolve, reject });
          w.postMessage({ op: 'finish', id });
        }).finally(() => this.hold(-1))),
    };
  }
}

const shared = new EncoderThread();

/** A new MP3 stream (stereo) on the shared encoder thread. */
export const openMp3Stream = (rate: number, kbps: number): Mp3Stream => shared.stream(rate, kbps);
