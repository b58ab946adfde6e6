// A small static file server for the host and each remote: SPA fallback for the host, CORS and
// cross-origin resource policy for remotes, no-cache for entries/manifests, gzip, and the
// security headers it is given (CSP, nosniff, Referrer-Policy: shared/build/security-headers.js).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon',
  '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.txt': 'text/plain; charset=utf-8',
  // nosniff: a script or font served with a wrong type is refused, so every kind built is named.
  '.mjs': 'text/javascript; charset=utf-8', '.map': 'application/json; charset=utf-8', '.woff': 'font/woff', '.woff2': 'font/woff2',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif',
};
const NO_CACHE = /(^|\/)(index\.html|remoteEntry\.js|mf-manifest\.json|mf-stats\.json|config\.json|main\.js)$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `<package>/<version>/<file>` inside a releases folder: not registry.json, its history, nor a copy in progress. */
const RELEASE_FILE = /^[a-z0-9][a-z0-9-]*\/\d[0-9A-Za-z.+-]*\/[^/.][^]*$/;

/**
 * What the host's server adds for a releases folder (scripts/lib/registry.mjs, docs/adr/0053):
 * /releases/<package>/<version>/… immutable (a version's manifest and entry too: a release never
 * changes), and /registry.json, read on every request, no-cache (it says which release runs).
 * @param {string} releasesDir
 */
export function releaseRoutes(releasesDir) {
  return {
    mounts: [{ prefix: '/releases/', dir: releasesDir, cacheControl: IMMUTABLE, only: RELEASE_FILE }],
    files: { '/registry.json': join(releasesDir, 'registry.json') },
  };
}

/**
 * mounts: a second folder under a URL prefix (files only, no SPA fallback), served with its own
 * Cache-Control, `only` the paths below the prefix that match; files: one URL → one file on disk,
 * read on every request, no-cache.
 * @param {{ dir: string, port: number, host?: string, spa?: boolean, overrides?: Record<string, string | Buffer>, headers?: Record<string, string>,
 *   mounts?: { prefix: string, dir: string, cacheControl?: string, only?: RegExp }[], files?: Record<string, string> }} o
 * @returns {Promise<import('node:http').Server>}
 */
export function serveStatic({ dir, port, host = '127.0.0.1', spa = false, overrides = {}, headers = {}, mounts = [], files = {} }) {
  const gz = new Map();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      if (overrides[url.pathname]) {
        res.writeHead(200, { 'Content-Type': TYPES[extname(url.pathname)] ?? 'text/plain', 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' });
        res.end(overrides[url.pathname]);
        return;
      }
      let file;
      let cacheControl;
      const mount = mounts.find((m) => url.pathname.startsWith(m.prefix));
      if (Object.hasOwn(files, url.pathname)) {
        file = files[url.pathname];
        cacheControl = 'no-cache';
      } else if (mount) {
        const rel = normalize(decodeURIComponent(url.pathname.slice(mount.prefix.length)));
        const inside = rel !== '.' && !rel.startsWith('..') && !isAbsolute(rel) && (!mount.only || mount.only.test(rel));
        file = inside ? join(mount.dir, rel) : null;
        cacheControl = mount.cacheControl;
      } else {
        let rel = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
        if (rel.endsWith('/')) rel += 'index.html';
        file = join(dir, rel);
        if (spa && !extname(rel) && !(await stat(file).catch(() => null))?.isFile()) file = join(dir, 'index.html');
      }
      const info = file ? await stat(file).catch(() => null) : null;
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.setHeader('Timing-Allow-Origin', '*');
      if (!info || !info.isFile()) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      res.setHeader('Content-Type', type);
      res.setHeader('Cache-Control', cacheControl ?? (NO_CACHE.test(file) ? 'no-cache' : IMMUTABLE));
      let body = await readFile(file);
      if (/gzip/.test(req.headers['accept-encoding'] ?? '') && /javascript|json|html|css|svg/.test(type)) {
        const key = `${file}:${info.mtimeMs}`;
        if (!gz.has(key)) gz.set(key, gzipSync(body));
        body = gz.get(key);
        res.setHeader('Content-Encoding', 'gzip');
        res.setHeader('Vary', 'Accept-Encoding');
      }
      res.writeHead(200).end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

// CLI: node serve-static.mjs DIR PORT [--spa]
if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, port] = process.argv.slice(2);
  await serveStatic({ dir, port: Number(port), spa: process.argv.includes('--spa') });
  console.log(`serving ${dir} on http://127.0.0.1:${port}`);
}
