import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { checkFormFields } from './input-guard';

export interface Upload {
  fields: Record<string, string>;
  /** The file part, when one with bytes was sent. */
  file?: { name: string; bytes: Buffer };
}

/**
 * A multipart form with one file held in memory (capped at `maxBytes` by the parser). A file over
 * the cap is a 400 on `fileField` with `tooLarge`. The fields pass the input guard; a surface
 * that names tenants in forms checks them itself (the PBX surface: pbx-upload.ts).
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
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('VALIDATION_FAILED', [{ field: fileField, message: tooLarge }]);
      if (e instanceof AppError) throw e;
      throw new AppError('VALIDATION_FAILED');
    }
  }
  checkFormFields(upload.fields);
  return upload;
}
