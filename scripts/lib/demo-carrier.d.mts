export const DEMO_CARRIER_ACCOUNT: { user: string; password: string };
export function demoCarrierAvailable(): boolean;
export function demoCarrierPorts(apiPort: number): { sipPort: number; httpPort: number };
export function demoCarrierEnv(apiPort: number, account?: { user: string; password: string }): Record<string, string>;
export interface RunningDemoCarrier {
  stop(): Promise<void>;
  /** Resolves once it has exited: its exit code, else the signal. */
  exited: Promise<number | string | null>;
  /** host:port of its SIP UDP socket (the switchboard's host and port). */
  address: string;
  /** Its control API: GET /calls, GET /registrations, POST /call. */
  controlUrl: string;
  log: string;
}
export function startDemoCarrier(o: { apiPort: number; proxyPort: number; log: string; cacheDir?: string; account?: { user: string; password: string }; timeoutMs?: number; ports?: { sipPort: number; httpPort: number } }): Promise<RunningDemoCarrier>;
