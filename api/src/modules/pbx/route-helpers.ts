import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/guards';
import type { Caller } from './pbx.service';

export const caller = (request: FastifyRequest): Caller => {
  const auth = authOf(request);
  return { tenantId: auth.tenantId, maDn: auth.maDn };
};

export const pbxSchema = (tag: string) => ({ tags: [`pbx: ${tag}`], security: [{ bearer: [] }] });
