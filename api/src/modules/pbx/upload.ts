import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors';
import { authOf } from '../../http/guards';
import { checkFormFields } from '../../http/input-guard';
import { checkFormTenant, invalid } from './pbx.errors';

export interface Upload {
  fields: Record<string, string>;
  /** The file part, when one with bytes was sent. */
  file?: { name: string; bytes: Buffer };
}

/**
 * A multipart form with one file held in memory (capped at `maxBytes` by the parser). A file over
 * the cap is a 400 on `fileField` with `tooLarge`; a tenant code in the fields is checked like the
 * guard checks JSON bodies.
 */
export async function readUpload(request: FastifyRequest, fileField: string, maxBytes: number, tooLarge: string): Promise<Upload> {
  const upload: Upload = { fields: {} };
  if (!request.isMultipart()) {
    for (const [k, v] of Object.entries((request.body ?? {}) as Record<string, unknown>)) if (typeof v === 'string') upload.fields[k] = v;
  } else {
    try {
      for await (const part of request.parts({ limits: { fileSize: maxBytes } })) {
        if (part.type === 'field') upload.fields[part.fieldname] = String(part.value);
        else if (part.fieldname !== fileField || upload.file) await part.toBuffer();
        else {
          const bytes = await part.toBuffer();
          if (bytes.length) upload.file = { name: part.filename ?? '', bytes };
        }
      }
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid([{ field: fileField, message: tooLarge }]);
      if (e instanceof AppError) throw e;
      throw new AppError('VALIDATION_FAILED');
    }
  }
  checkFormFields(upload.fields);
  checkFormTenant(upload.fields, authOf(request).maDn);
  return upload;
}
