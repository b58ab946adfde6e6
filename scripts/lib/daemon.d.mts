import type { ChildProcess } from 'node:child_process';

/** The end of a log file, for error messages ('' when it cannot be read). */
export function logTail(file: string): string;
/** The live (not zombie) processes of process group `pgid`. */
export function groupMembers(pgid: number): number[];
/** Resolves once no live process is left in group `pgid` (false if some still are after `timeoutMs`). */
export function groupGone(pgid: number, timeoutMs?: number): Promise<boolean>;
/**
 * A server process in its own process group, its output appended to `log`, taken down with this
 * process. stop(): SIGTERM to the group, SIGKILL after 3 s; `exited`: its exit code, else the signal.
 */
export function spawnDaemon(bin: string, args: string[], o: { cwd: string; log: string; env?: NodeJS.ProcessEnv }): {
  proc: ChildProcess;
  stop(): Promise<void>;
  exited: Promise<number | string | null>;
};
