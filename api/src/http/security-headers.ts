import type { FastifyInstance } from 'fastify';

/** No answer of the API is a page: nothing in it may run, load or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every API answer, errors and 404s included (docs/adr/0020): JSON, audio
 * and logos are never sniffed into another type, never framed, and carry no referrer onwards.
 * The API's own documentation pages (/docs, Swagger UI) run scripts, so they keep no CSP.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.headers({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' });
    if (!request.url.startsWith('/docs')) void reply.header('Content-Security-Policy', API_CSP);
  });
}
