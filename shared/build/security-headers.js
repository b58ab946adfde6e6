// The UI's security headers (docs/adr/0020): one Content-Security-Policy built from the runtime
// config the host reads at start-up (config.json: API bases, remotes' manifests), used by the
// static servers of `npm start`/e2e (scripts/lib/stack.mjs) and checked against the production
// nginx configuration (host/nginx.conf, security-headers.test.js).

const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');

/** 'sha256-…' of each inline <script> of the host's page (the theme painted before first paint). */
function inlineScriptHashes(html = fs.readFileSync(path.join(__dirname, '../../host/src/index.html'), 'utf8')) {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
}

/**
 * Provider 3's SDK (npm `stringee`) asks api.stringee.com for its servers and then opens
 * WebSockets to the addresses it is given (bare IPs, any port): only a scheme source admits them.
 */
const PROVIDER3_CONNECT = ['https://api.stringee.com', 'wss:'];

/** The origin of an absolute URL; null for a relative one (served by the host itself: 'self'). */
function originOf(url) {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return null;
  return new URL(url.replace('{ma_dn}', 'x')).origin;
}

/** The WebSocket origin beside an HTTP one (the API's /t/{ma_dn}/events). */
const wsOf = (origin) => origin.replace(/^http/, 'ws');

const unique = (list) => [...new Set(list.filter(Boolean))];

/**
 * @param {{ apis: Record<string, string>, remotes: Record<string, string> }} config the host's config.json
 * @param {{ sipWebSockets?: string[], connect?: string[] }} [extra] softphone WebSocket URLs (JsSIP), more connect sources
 * @returns {string}
 */
function contentSecurityPolicy(config, extra = {}) {
  const remotes = unique(Object.values(config.remotes).map(originOf));
  const apis = unique(Object.values(config.apis).map(originOf));
  const sip = unique((extra.sipWebSockets ?? []).map((u) => (u.startsWith('$') ? u : originOf(u))));
  const directives = {
    'default-src': ["'self'"],
    // Module Federation loads each remote's entry and chunks as <script> from its own origin; the
    // host's one inline script is allowed by its hash, no other inline script runs.
    'script-src': ["'self'", ...inlineScriptHashes(), ...remotes],
    // Griffel (Fluent UI v9) inserts <style> rules at run time, and a static host has no nonce to give it.
    'style-src': ["'self'", "'unsafe-inline'", ...remotes],
    // The site logo comes from the tenant API; previews of a chosen file are blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:', ...apis, ...remotes],
    // Greetings and music on hold are fetched with the token and played from blob: URLs.
    'media-src': ["'self'", 'blob:', ...apis],
    'font-src': ["'self'", 'data:', ...remotes],
    // Manifests (fetch), the five APIs, the events WebSocket, the softphone's SIP WebSocket.
    'connect-src': unique(["'self'", ...remotes, ...apis, ...apis.map(wsOf), ...sip, ...PROVIDER3_CONNECT, ...(extra.connect ?? [])]),
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Every response of the host and the remotes' servers. */
function securityHeaders(csp) {
  return {
    ...(csp ? { 'Content-Security-Policy': csp } : {}),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // frame-ancestors for browsers that predate it.
    'X-Frame-Options': 'DENY',
  };
}

module.exports = { contentSecurityPolicy, securityHeaders, inlineScriptHashes, PROVIDER3_CONNECT };
