export function mediaAvailable(): boolean;
export interface RunningMediaWorker {
  stop(): Promise<void>;
  /** SIGKILL, no goodbye: what a crash looks like to Kamailio. */
  kill(): void;
  /** host:port of its SIP UDP socket (a dispatcher destination). */
  address: string;
  log: string;
}
export function startMediaWorker(o: { port: number; apiInternalUrl: string; internalSecret: string; proxyPort: number; log: string; timeoutMs?: number }): Promise<RunningMediaWorker>;
