export interface RtpengineOptions {
  /** UDP port of the ng control protocol, on 127.0.0.1. */
  ngPort: number;
  /** Media port range on 127.0.0.1. */
  portMin: number;
  portMax: number;
  /** Work dir: pid file and rtpengine.log. */
  dir: string;
  timeoutMs?: number;
}
export interface RunningRtpengine {
  stop(): Promise<void>;
  /** For Kamailio's rtpengine_sock, e.g. udp:127.0.0.1:2223. */
  sock: string;
  pid: number | undefined;
  log: string;
}
export function rtpengineBinary(): string | null;
export function rtpengineAvailable(): boolean;
export function rtpenginePing(ngPort: number, timeoutMs?: number): Promise<boolean>;
export function startRtpengine(o: RtpengineOptions): Promise<RunningRtpengine>;
