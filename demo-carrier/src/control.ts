import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { RunningCarrier } from './carrier';
import { parseRemote } from './carrier';
import { parsePopulation } from './population';

/** A number as a carrier carries it: digits, an optional leading +, 3 to 20 long. */
const NUMBER = /^\+?\d{3,20}$/;
const TARGET = /^(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}$/;
/** Who calls the hotline when POST /call names nobody: a Viettel mobile. */
export const DEFAULT_CALLER = '0987654321';

const MSG = {
  notFound: 'Không có đường dẫn này. Dùng GET /calls, GET /registrations, POST /call, GET /population hoặc PUT /population',
  badJson: 'Nội dung phải là JSON',
  to: '"to" phải là số điện thoại (chỉ gồm chữ số, có thể bắt đầu bằng +)',
  from: '"from" phải là số điện thoại (chỉ gồm chữ số, có thể bắt đầu bằng +)',
  target: '"target" phải có dạng IPv4:cổng, ví dụ 127.0.0.1:4089',
  noProxy: 'Nhà mạng demo chưa biết địa chỉ tổng đài: truyền "target"',
} as const;

const BAD = Symbol('bad body');

async function body(req: IncomingMessage): Promise<unknown> {
  let raw = '';
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > 10_000) throw new Error('too large');
  }
  return raw ? JSON.parse(raw) : {};
}

/**
 * The carrier's control API on loopback: GET /health, GET /calls (newest first, with From and
 * P-Asserted-Identity), GET /registrations, POST /call {to, from?, target?} → 202 with the call
 * (its progress is in GET /calls), GET /population and PUT /population {prefixes?, answer?, busy?,
 * answer_delay_s?, busy_delay_s?, talk_median_s?, talk_sigma?} → 200 with the settings now in force
 * (population.ts). Errors: 4xx with a Vietnamese message and a code.
 */
export function controlServer(carrier: RunningCarrier, o: { hasProxy: boolean }): Server {
  return createServer(async (req, res) => {
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(data, null, 2));
    };
    const fail = (status: number, code: string, message: string) => send(status, { code, message });
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (req.method === 'GET' && path === '/health') return send(200, { ok: true, sip: `udp ${carrier.address}:${carrier.port}`, realm: carrier.realm });
      if (req.method === 'GET' && path === '/calls') return send(200, { calls: carrier.calls() });
      if (req.method === 'GET' && path === '/registrations') return send(200, { registrations: carrier.registrations() });
      if (req.method === 'GET' && path === '/population') return send(200, carrier.population());
      const input = req.method === 'POST' || req.method === 'PUT' ? await body(req).catch(() => BAD) : null;
      if (input === BAD) return fail(400, 'bad_json', MSG.badJson);
      if (req.method === 'PUT' && path === '/population') {
        const check = parsePopulation(input, carrier.population());
        if (!check.ok) return fail(400, check.code, check.message);
        carrier.setPopulation(check.settings);
        return send(200, carrier.population());
      }
      if (req.method === 'POST' && path === '/call') {
        const i = (input ?? {}) as Record<string, unknown>;
        const to = String(i.to ?? '').replace(/[\s.-]/g, '');
        const from = String(i.from ?? DEFAULT_CALLER).replace(/[\s.-]/g, '');
        if (!NUMBER.test(to)) return fail(400, 'invalid_to', MSG.to);
        if (!NUMBER.test(from)) return fail(400, 'invalid_from', MSG.from);
        if (i.target !== undefined && !TARGET.test(String(i.target))) return fail(400, 'invalid_target', MSG.target);
        if (i.target === undefined && !o.hasProxy) return fail(400, 'no_target', MSG.noProxy);
        const call = await carrier.call({ to, from, ...(i.target !== undefined ? { target: parseRemote(String(i.target)) } : {}) });
        return send(202, { call });
      }
      return fail(404, 'not_found', MSG.notFound);
    } catch (e) {
      return fail(500, 'internal', e instanceof Error ? e.message : String(e));
    }
  });
}
