import type { Server } from 'node:http';

/** Cache-Control of what never changes at its address (a release's files). */
export const IMMUTABLE: string;

/** A second folder served under a URL prefix, with its own caching and the files it may answer. */
export interface Mount {
  prefix: string;
  dir: string;
  cacheControl?: string;
  only?: RegExp;
}

/** What a host's server needs to serve a releases folder: /releases/<package>/<version>/… and /registry.json. */
export function releaseRoutes(releasesDir: string): { mounts: Mount[]; files: Record<string, string> };

export function serveStatic(o: {
  dir: string;
  port: number;
  host?: string;
  spa?: boolean;
  overrides?: Record<string, Buffer | string>;
  headers?: Record<string, string>;
  mounts?: Mount[];
  files?: Record<string, string>;
}): Promise<Server>;
