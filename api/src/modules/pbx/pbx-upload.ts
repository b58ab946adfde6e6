import type { FastifyRequest } from 'fastify';
import { authOf } from '../../http/guards';
import { readUpload as readForm, type Upload } from '../../http/upload';
import { checkFormTenant } from './pbx.errors';

/** The kernel's upload, with the tenant code a partner form names checked like the guard checks JSON bodies (403). */
export async function readUpload(request: FastifyRequest, fileField: string, maxBytes: number, tooLarge: string): Promise<Upload> {
  const upload = await readForm(request, fileField, maxBytes, tooLarge);
  checkFormTenant(upload.fields, authOf(request).maDn);
  return upload;
}
