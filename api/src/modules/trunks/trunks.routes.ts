import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { Db } from '../../db/db';
import { switchboardOfUuid, type SwitchboardDirectory } from './switchboard-directory';
import { writeStatuses } from './trunks.repository';

const StatusBody = v.object({
  uuid: v.pipe(v.string(), v.regex(/^tdsb\d{1,9}$/)),
  status: v.picklist(['registered', 'failed']),
  /** The carrier's final answer ("401 Unauthorized") or "timeout"; '' when registered. */
  reason: v.optional(v.pipe(v.string(), v.maxLength(200)), ''),
});

/** What a tenant reads when nothing answered: a timeout and a refused connection alike (issue 32). */
export const NO_ANSWER = 'Nhà mạng không phản hồi';

/**
 * The carrier's answer to a REGISTER, in Vietnamese with the carrier's own words kept (the screens
 * show it). Silence, a refused connection and the next hop's own 408/477 all read "không phản hồi":
 * telling them apart would let a tenant learn what listens at an address (ADR 0043).
 */
export function registrationReason(raw: string): string {
  const answer = raw.trim().replace(/[^\x20-\x7e]/g, '').slice(0, 100);
  const code = Number(/^(\d{3})/.exec(answer)?.[1] ?? 0);
  if (!answer || code === 408 || code === 477 || /^(?:timeout|refused|unreachable)\b/i.test(answer)) return NO_ANSWER;
  if (code === 401 || code === 407) return `Sai tài khoản hoặc mật khẩu xác thực (${answer})`;
  if (code === 403) return `Nhà mạng từ chối đăng ký (${answer})`;
  return `Nhà mạng trả lời ${answer}`;
}

/**
 * Kamailio's side of the carrier trunks, on the internal listener (ADR 0036):
 *   GET  /internal/sip/switchboards?version=   registrations to keep and carriers' addresses; 204 while unchanged
 *   POST /internal/sip/switchboards/status     a registration's outcome (registered / failed with the carrier's answer)
 *   GET  /internal/sip/switchboards/digest?id=&realm=   "user,ha1" for a carrier's challenge on an outbound INVITE
 */
export function registerTrunkRoutes(app: FastifyInstance, db: Db, directory: SwitchboardDirectory): void {
  app.get<{ Querystring: { version?: string } }>('/internal/sip/switchboards', async (request, reply) => {
    const view = await directory.forKamailio();
    reply.header('cache-control', 'no-store');
    if (request.query.version === view.version) return reply.status(204).send();
    // One line: http_client keeps the first line of the body.
    return reply.type('application/json').send(`${JSON.stringify(view)}\n`);
  });

  app.post('/internal/sip/switchboards/status', async (request, reply) => {
    const b = v.safeParse(StatusBody, request.body);
    if (!b.success) return reply.status(400).send({ ok: false });
    const id = switchboardOfUuid(b.output.uuid)!;
    const reason = b.output.status === 'registered' ? '' : registrationReason(b.output.reason);
    await writeStatuses(db, [{ id, status: b.output.status, reason }]);
    return { ok: true };
  });

  app.get<{ Querystring: { id?: string; realm?: string } }>('/internal/sip/switchboards/digest', async (request, reply) => {
    const id = Number(request.query.id);
    const realm = String(request.query.realm ?? '');
    const found = Number.isInteger(id) && id > 0 && realm.length <= 255 ? await directory.digest(id, realm) : null;
    if (!found) return reply.status(404).type('text/plain').send('');
    return reply.type('text/plain').header('cache-control', 'no-store').send(`${found.user},${found.ha1}`);
  });
}
