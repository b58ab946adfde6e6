import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { EMPTY_SHA256, sha256Hex, signV4, uriEncode, type SigV4Credentials } from './sigv4';

/**
 * Where call recordings' MP3 files live (issue 16, ADR 0041): a folder of this machine, or an
 * S3-compatible bucket (AWS, MinIO, Ceph…). Recordings are large (≈0.5 MB a minute, hours a day
 * per agent), so unlike greetings and voicemail they are not kept in PostgreSQL; call_recordings
 * names each file by its key, `<tenant_id>/<yyyy-mm-dd>/<random>.mp3`.
 */
export interface RecordingStore {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Buffer): Promise<void>;
  /** The file's bytes; null when there is no such file. */
  get(key: string): Promise<Buffer | null>;
  /** Gone afterwards (a key that names nothing is not an error). */
  delete(key: string): Promise<void>;
}

declare module '../../deps' {
  interface AppDeps {
    /** Where call recordings' files are (issue 16): a local folder or an S3-compatible bucket. */
    recordings: RecordingStore;
  }
}

/** The only keys a store accepts: nothing else reaches a path or a URL (no `..`, no absolute path). */
export const RECORDING_KEY = /^\d{1,9}\/\d{4}-\d{2}-\d{2}\/[A-Za-z0-9_-]{16,64}\.mp3$/;

/** A fresh key for a tenant's recording uploaded at `now` (UTC day). */
export function newRecordingKey(tenantId: number, now = new Date()): string {
  return `${tenantId}/${now.toISOString().slice(0, 10)}/${randomBytes(18).toString('base64url')}.mp3`;
}

function checkKey(key: string): string {
  if (!RECORDING_KEY.test(key)) throw new Error(`not a recording key: ${JSON.stringify(key)}`);
  return key;
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Files under one folder, readable by this user only (0600 files, 0700 folders). */
export class LocalRecordingStore implements RecordingStore {
  readonly kind = 'local' as const;
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  private pathOf(key: string): string {
    const path = resolve(this.dir, checkKey(key));
    if (!path.startsWith(this.dir + sep)) throw new Error(`recording key outside the store: ${key}`);
    return path;
  }

  /** Written beside, then renamed: a key names a whole file or none. */
  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.part`;
    try {
      await writeFile(tmp, bytes, { mode: 0o600, flag: 'wx' });
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }
}

export interface S3Config {
  /** https://s3.example.com (a path prefix is kept); the bucket goes in the path (path-style). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
}

type Fetch = typeof fetch;

/** An S3-compatible bucket, path-style requests signed with AWS Signature V4 (no SDK). */
export class S3RecordingStore implements RecordingStore {
  readonly kind = 's3' as const;
  private readonly cred: SigV4Credentials;

  constructor(
    private readonly cfg: S3Config,
    private readonly fetchFn: Fetch = fetch,
    private readonly now: () => Date = () => new Date(),
  ) {
    if (!cfg.accessKey || !cfg.secretKey) throw new Error('RECORDINGS_S3_ACCESS_KEY and RECORDINGS_S3_SECRET_KEY are needed with RECORDINGS_S3_ENDPOINT');
    this.cred = { accessKey: cfg.accessKey, secretKey: cfg.secretKey, region: cfg.region || 'us-east-1', service: 's3' };
  }

  /** <endpoint>/<bucket>/<key>, every segment encoded as SigV4 signs it. */
  urlOf(key: string): URL {
    const url = new URL(this.cfg.endpoint);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${uriEncode(this.cfg.bucket, false)}/${uriEncode(checkKey(key), true)}`;
    url.search = '';
    return url;
  }

  private async send(method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Buffer): Promise<Response> {
    const url = this.urlOf(key);
    const extra = body ? { 'content-type': 'audio/mpeg' } : undefined;
    const { headers } = signV4({ method, url, headers: extra, payloadHash: body ? sha256Hex(body) : EMPTY_SHA256, now: this.now() }, this.cred);
    delete headers.host; // fetch sends the URL's own (the one signed)
    return this.fetchFn(url, {
      method,
      headers,
      // A copy on its own ArrayBuffer: what fetch's BodyInit takes under every lib (the e2e's too).
      ...(body && { body: new Uint8Array(body) }),
      signal: AbortSignal.timeout(body ? 600_000 : 120_000),
    });
  }

  private static async fail(what: string, res: Response): Promise<never> {
    const text = await res.text().catch(() => '');
    throw new Error(`S3 ${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const res = await this.send('PUT', key, bytes);
    if (!res.ok) await S3RecordingStore.fail(`PUT ${key}`, res);
    await res.arrayBuffer().catch(() => undefined);
  }

  async get(key: string): Promise<Buffer | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await res.arrayBuffer().catch(() => undefined);
      return null;
    }
    if (!res.ok) await S3RecordingStore.fail(`GET ${key}`, res);
    return Buffer.from(await res.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) await S3RecordingStore.fail(`DELETE ${key}`, res);
    await res.arrayBuffer().catch(() => undefined);
  }
}

const REPO_ROOT = resolve(__dirname, '../../../..');

/** RECORDINGS_DIR, else `recordings` beside the data (DATA_DIR, else <repo>/.data). */
export function defaultRecordingsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RECORDINGS_DIR) return resolve(env.RECORDINGS_DIR);
  return join(env.DATA_DIR ? resolve(env.DATA_DIR) : join(REPO_ROOT, '.data'), 'recordings');
}

/** The bucket when RECORDINGS_S3_ENDPOINT and RECORDINGS_S3_BUCKET are set, else the local folder. */
export function recordingStoreFromEnv(env: NodeJS.ProcessEnv = process.env): RecordingStore {
  if (env.RECORDINGS_S3_ENDPOINT && env.RECORDINGS_S3_BUCKET) {
    return new S3RecordingStore({
      endpoint: env.RECORDINGS_S3_ENDPOINT,
      bucket: env.RECORDINGS_S3_BUCKET,
      region: env.RECORDINGS_S3_REGION ?? 'us-east-1',
      accessKey: env.RECORDINGS_S3_ACCESS_KEY ?? '',
      secretKey: env.RECORDINGS_S3_SECRET_KEY ?? '',
    });
  }
  return new LocalRecordingStore(defaultRecordingsDir(env));
}
