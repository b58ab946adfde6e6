import { isSpecRoute } from '@tongdai/contracts';
import type { RemoteManifest } from '@tongdai/platform';

export interface ManifestProblem {
  remote: string;
  path: string;
  reason: 'duplicate' | 'not-in-spec';
}

/** Two remotes claiming one route, or a route outside SPEC §2's table, are refused. */
export function findManifestProblems(manifests: RemoteManifest[], hostRoutes: string[] = []): ManifestProblem[] {
  const owner = new Map<string, string>(hostRoutes.map((p) => [p, 'host']));
  const problems: ManifestProblem[] = [];
  for (const m of manifests) {
    for (const r of m.routes) {
      if (!isSpecRoute(r.path)) problems.push({ remote: m.id, path: r.path, reason: 'not-in-spec' });
      else if (owner.has(r.path)) problems.push({ remote: m.id, path: r.path, reason: 'duplicate' });
      else owner.set(r.path, m.id);
    }
  }
  return problems;
}

/** Drops refused routes; loud in development (throws), logged in production. */
export function acceptManifests(manifests: RemoteManifest[], hostRoutes: string[], dev: boolean): RemoteManifest[] {
  const problems = findManifestProblems(manifests, hostRoutes);
  if (!problems.length) return manifests;
  const text = problems.map((p) => `${p.remote} ${p.path}: ${p.reason}`).join('; ');
  if (dev) throw new Error(`Remote manifests refused: ${text}`);
  console.error(`[tongdai] remote routes refused: ${text}`);
  const bad = new Set(problems.map((p) => `${p.remote}|${p.path}`));
  return manifests.map((m) => ({ ...m, routes: m.routes.filter((r) => !bad.has(`${m.id}|${r.path}`)) }));
}
