export const KAMAILIO_CFG: string;
export const KAMAILIO_PACKAGES: string[];
export interface KamailioOptions {
  /** WebSocket (TCP) port for browsers, on 127.0.0.1. */
  wsPort: number;
  /** UDP port for trunks and sipp, on 127.0.0.1. */
  udpPort: number;
  /** The API's internal listener, e.g. http://127.0.0.1:4001/internal/sip. */
  apiInternalUrl: string;
  /** Work dir: generated config, pid, ctl socket and kamailio.log. */
  dir: string;
}
export interface RunningKamailio {
  stop(): Promise<void>;
  wsUrl: string;
  pid: number | undefined;
  /** For `kamcmd -s unix:<ctlSocket> ul.dump`. */
  ctlSocket: string;
  log: string;
}
export function kamailioBinary(): string | null;
export function kamailioAvailable(): boolean;
export function kamailioConfig(o: KamailioOptions): string;
export function checkKamailioConfig(o: KamailioOptions): string | null;
export function sipOptions(udpPort: number, timeoutMs?: number): Promise<number | null>;
export function startKamailio(o: KamailioOptions & { timeoutMs?: number }): Promise<RunningKamailio>;
