import type { FastifyInstance } from 'fastify';

/** Test helpers of the PBX module: generated audio, multipart bodies, a client for /pbx (any Fastify app, passed in). */

/** `seconds` of silent 16-bit mono PCM at `rate` Hz, as a WAV file. */
export { silentWav as wav } from './wav';

/** `frames` MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes each), after an ID3v2 tag when asked. */
export function mp3(frames: number, id3 = false): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x44]);
  const tag = id3 ? Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 20, ...new Array(20).fill(0)]) : Buffer.alloc(0);
  return Buffer.concat([tag, ...Array.from({ length: frames }, () => frame)]);
}

export interface FilePart {
  field?: string;
  name: string;
  type: string;
  bytes: Buffer;
}

/** A multipart body by hand (fields, then at most one file). */
export function multipart(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----tongdai-pbx-${Date.now()}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
    parts.push(Buffer.from(head), file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Requests under /pbx as one user; paths are relative to /pbx. */
export function pbxClient(app: FastifyInstance, headers: Record<string, string>) {
  const url = (path: string) => `/pbx${path}`;
  return {
    get: (path: string) => app.inject({ method: 'GET', url: url(path), headers }),
    post: (path: string, payload: unknown) => app.inject({ method: 'POST', url: url(path), headers, payload: payload as object }),
    put: (path: string, payload: unknown) => app.inject({ method: 'PUT', url: url(path), headers, payload: payload as object }),
    del: (path: string) => app.inject({ method: 'DELETE', url: url(path), headers }),
    upload: (path: string, fields: Record<string, string>, file?: FilePart) => {
      const body = multipart(fields, file);
      return app.inject({ method: 'POST', url: url(path), headers: { ...headers, ...body.headers }, payload: body.payload });
    },
  };
}
export type PbxClient = ReturnType<typeof pbxClient>;
