import type { ChildProcess } from 'node:child_process';

export interface Stack {
  webUrl: string;
  apiUrl: string;
  api: ChildProcess;
  stop(): Promise<void>;
  stopRemote(id: string): Promise<void>;
  startRemote(id: string): Promise<void>;
}
export const REMOTES: { id: string; dir: string; offset: number }[];
export function runtimeConfig(o: { apiUrl: string; webPort: number; host?: string }): unknown;
export function startApi(o: { port: number; databaseUrl?: string; dataDir?: string; env?: Record<string, string>; quiet?: boolean }): ChildProcess;
export function startStack(o?: { webPort?: number; apiPort?: number; databaseUrl?: string; dataDir?: string; quiet?: boolean; apiEnv?: Record<string, string> }): Promise<Stack>;
