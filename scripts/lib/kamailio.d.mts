export const KAMAILIO_CFG: string;
export interface KamailioOptions {
  /** WebSocket (TCP) port for browsers, on 127.0.0.1. */
  wsPort: number;
  /** UDP port for carriers, SIP phones and sipp, on 127.0.0.1 (also the Contact of carrier registrations). */
  udpPort: number;
  /** The API's internal listener, e.g. http://127.0.0.1:4001/internal/sip. */
  apiInternalUrl: string;
  /** A second API instance's internal listener (ADR 0059): what the first refuses (down, standing by) is asked there. */
  apiInternalUrl2?: string;
  /** Work dir: generated config, pid, ctl socket and kamailio.log. */
  dir: string;
  /** The API's INTERNAL_SECRET: Kamailio presents it to the internal listener and proves it on evapi. */
  internalSecret?: string;
  /** Requests per 2 s one untrusted address may send before a 300 s ban (default 16). */
  floodDensity?: number;
  /** rtpengine's ng control socket, e.g. udp:127.0.0.1:2223 (unset: media is never relayed). */
  rtpengine?: string;
  /** Media workers' SIP UDP addresses ("127.0.0.1:5070"), dispatcher set 1. */
  mediaWorkers?: string[];
  /** Routing configuration to include instead of sip/kamailio.cfg. */
  cfg?: string;
  /** TCP port (127.0.0.1) of Kamailio's evapi: the API reads call events there (KAMAILIO_EVAPI). */
  evapiPort?: number;
  /** Extra preprocessor names to #!define (e.g. TONGDAI_PLAN_TIMING: log each plan request's time). */
  defines?: string[];
  /** The operator's TRUNK_ALLOWED_NETWORKS (as the API gets it): a loopback network listed there is the one carrier steps may reach (ADR 0043). */
  trunkAllowedNetworks?: string;
  /** Where call events no API has acknowledged are kept on disk (ADR 0046); default DIR/outbox. */
  outboxDir?: string;
}
export interface RunningKamailio {
  stop(): Promise<void>;
  /** Resolves once it has exited: its exit code, else the signal. */
  exited: Promise<number | string | null>;
  wsUrl: string;
  pid: number | undefined;
  /** For `kamcmd -s unix:<ctlSocket> ul.dump`. */
  ctlSocket: string;
  log: string;
}
export function kamailioBinary(): string | null;
export function kamailioAvailable(): boolean;
/** The empty db_text table uac's registrations need (records come from the API over RPC); returns its dir. */
export function writeUacregDb(dir: string): string;
export function kamailioConfig(o: KamailioOptions): string;
export function checkKamailioConfig(o: KamailioOptions): string | null;
/** The first loopback network of a TRUNK_ALLOWED_NETWORKS list, as a list of at most one. */
export function loopbackAllowed(list: string | undefined): string[];
export function writeMediaList(dir: string, workers?: string[]): void;
export function sipOptions(udpPort: number, timeoutMs?: number): Promise<number | null>;
/** shmMb: shared memory (-m), default 64; a thousand calls a second needs more (the bench uses 512). */
export function startKamailio(o: KamailioOptions & { timeoutMs?: number; shmMb?: number }): Promise<RunningKamailio>;
export { freeTcpPort, freeUdpPort, freeMediaPort, freeTcpBlock } from './ports.mjs';
