import type { ChildProcess } from 'node:child_process';

export interface Stack {
  webUrl: string;
  apiUrl: string;
  /** The API's process now (a supervised stack's restarts replace it). */
  readonly api: ChildProcess;
  stop(): Promise<void>;
  stopRemote(id: string): Promise<void>;
  startRemote(id: string): Promise<void>;
  /** Kamailio of this stack, or null (not installed, `sip: false`, or it failed: see sipError). */
  sip: StackSip | null;
  sipError: string | null;
}
export interface StackSip {
  wsUrl: string;
  udpPort: number;
  /** Work dir: generated config, kamailio.log, ctl socket (kamailio_ctl). */
  dir: string;
  /** Stops and starts Kamailio on the same ports (registrations are lost, as on a real restart). */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) Kamailio's process group: a hung server, sockets open, no answer. */
  freeze(frozen: boolean): void;
  /** host:port of the media worker (greetings, IVR, queues), null when it did not start. */
  mediaAddress(): string | null;
  /**
   * The pids of the processes running now, null where one is not: Kamailio's main process (its workers
   * are in its process group), the media worker (node), rtpengine.
   */
  pids(): { kamailio: number | null; mediaWorker: number | null; rtpengine: number | null };
  /** The demo carrier (startStack's demoCarrier), null when not asked for or it did not start. */
  demoCarrier(): { address: string; controlUrl: string; log: string } | null;
  /** The API's INTERNAL_SECRET for this run (what Kamailio and the media worker present). */
  internalSecret: string;
}
export function sipPorts(apiPort: number): { wsPort: number; udpPort: number; internalPort: number; evapiPort: number; mediaPort: number };
export function rtpPorts(apiPort: number): { ngPort: number; portMin: number; portMax: number };
export const REMOTES: { id: string; dir: string; offset: number }[];
/** registry: the URL config.json names for the registry of releases (startStack's releasesDir: /registry.json). */
export function runtimeConfig(o: { apiUrl: string; webPort: number; host?: string; registry?: string }): unknown;
/** log: a file the API's stdout and stderr are appended to (instead of the terminal). */
export function startApi(o: { port: number; databaseUrl?: string; dataDir?: string; env?: Record<string, string>; quiet?: boolean; log?: string }): ChildProcess;
/**
 * The host and the remotes as startStack serves them, on webPort and webPort + each remote's offset, with
 * config.json naming `apiUrl` (an API startStack does not run: a proxy in front of several instances).
 */
export function serveWeb(o: { webPort: number; apiUrl: string; sipWebSockets?: string[] }): Promise<{ webUrl: string; stop(): Promise<void> }>;
/**
 * floodDensity: Kamailio's flood limit, requests per 2 s from one address (16 when not given); trunkAllowedNetworks: TRUNK_ALLOWED_NETWORKS (ADR 0043).
 * releasesDir: a releases folder (scripts/lib/registry.mjs, ADR 0053): the host's server also serves /releases/<package>/<version>/…
 * (Cache-Control immutable) and /registry.json (no-cache, read per request), and config.json gets "registry": "/registry.json".
 */
export function startStack(o?: { webPort?: number; apiPort?: number; databaseUrl?: string; dataDir?: string; quiet?: boolean; apiEnv?: Record<string, string>; sip?: boolean; demoCarrier?: boolean; floodDensity?: number; trunkAllowedNetworks?: string; supervise?: boolean; releasesDir?: string }): Promise<Stack>;
/** Starts `launch`'s process and, `enabled`, starts it again when it fails (npm start's supervision). */
export function supervised<T extends { stop(): Promise<void>; exited: Promise<number | string | null> }>(name: string, launch: () => Promise<T>, o?: { enabled?: boolean; log?: (line: string) => void }): Promise<{ current(): T; stop(): Promise<void> }>;
/** rtpengine's control and the media worker's ports of a stack (PBX_SERVICE_PORTS), comma-separated. */
export function servicePorts(apiPort: number): string;
