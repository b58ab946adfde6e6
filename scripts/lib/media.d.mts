export function mediaAvailable(): boolean;
export interface RunningMediaWorker {
  stop(): Promise<void>;
  /** SIGKILL, no goodbye: what a crash looks like to Kamailio. */
  kill(): void;
  /** Resolves once it has exited: its exit code, else the signal. */
  exited: Promise<number | string | null>;
  /** host:port of its SIP UDP socket (a dispatcher destination). */
  address: string;
  log: string;
  pid: number;
}
/** `spoolDir`: its recordings until the API has them (MEDIA_SPOOL_DIR), handed over by a worker started again on it. */
export function startMediaWorker(o: { port: number; apiInternalUrl: string; internalSecret: string; proxyPort: number; log: string; spoolDir?: string; timeoutMs?: number }): Promise<RunningMediaWorker>;
