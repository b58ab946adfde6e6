import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRecordingStore, newRecordingKey, recordingStoreFromEnv, S3RecordingStore, defaultRecordingsDir } from './recording-store';
import { EMPTY_SHA256, sha256Hex, signingKey, signV4 } from './sigv4';

/**
 * AWS's documented Signature V4 examples (Amazon S3 API reference, "Signature calculations for the
 * Authorization header: transferring payload in a single chunk"; IAM's "Examples of how to derive a
 * signing key"): the values below are AWS's, not ours, so a wrong canonical request, scope or key
 * derivation fails here.
 */
describe('AWS Signature V4', () => {
  const cred = { accessKey: 'AKIAIOSFODNN7EXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1', service: 's3' };
  const now = new Date('2013-05-24T00:00:00Z');

  it('derives the documented signing key', () => {
    expect(signingKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', '20120215', 'us-east-1', 'iam').toString('hex')).toBe(
      'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d',
    );
  });

  it('signs the S3 GET Object example (a Range header, empty payload)', () => {
    const r = signV4({ method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { Range: 'bytes=0-9' }, payloadHash: EMPTY_SHA256, now }, cred);
    expect(r.canonicalRequest).toBe(
      'GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\nx-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\nx-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(r.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('signs the S3 PUT Object example (a payload, a $ in the key encoded once)', () => {
    const body = Buffer.from('Welcome to Amazon S3.');
    expect(sha256Hex(body)).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const r = signV4(
      {
        method: 'PUT', url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
        headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' }, payloadHash: sha256Hex(body), now,
      },
      cred,
    );
    expect(r.canonicalRequest.split('\n').slice(0, 2)).toEqual(['PUT', '/test%24file.text']);
    expect(r.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('signs the S3 list example (query parameters sorted and encoded)', () => {
    const r = signV4({ method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2'), payloadHash: EMPTY_SHA256, now }, cred);
    expect(r.signature).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });
});

describe('the local recording store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tongdai-rec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a file per key, readable by its owner only, and forgets it', async () => {
    const store = new LocalRecordingStore(dir);
    const key = newRecordingKey(7, new Date('2026-11-23T10:00:00Z'));
    expect(key).toMatch(/^7\/2026-11-23\/[A-Za-z0-9_-]{24}\.mp3$/);
    const bytes = Buffer.from([0xff, 0xfb, 0x90, 0x44, 1, 2, 3]);
    await store.put(key, bytes);
    expect(Buffer.compare((await store.get(key))!, bytes)).toBe(0);
    expect(statSync(join(dir, key)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, '7', '2026-11-23'))).toEqual([key.split('/')[2]]); // no temporary file left
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('refuses any key that is not a recording key (no way out of its folder)', async () => {
    const store = new LocalRecordingStore(dir);
    for (const key of ['../etc/passwd', '/etc/passwd', '1/2026-01-01/../../x.mp3', '1/2026-01-01/abc.mp3', '1/2026-01-01/aaaaaaaaaaaaaaaa.wav', `1/2026-01-01/${'a'.repeat(16)}.mp3/..`]) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/recording key/);
      await expect(store.get(key)).rejects.toThrow(/recording key/);
    }
  });

  it('is the default: RECORDINGS_DIR, else <DATA_DIR>/recordings; S3 when its endpoint and bucket are set', () => {
    expect(defaultRecordingsDir({ RECORDINGS_DIR: '/srv/rec' })).toBe('/srv/rec');
    expect(defaultRecordingsDir({ DATA_DIR: '/srv/data' })).toBe('/srv/data/recordings');
    expect(defaultRecordingsDir({})).toMatch(/\/\.data\/recordings$/);
    expect(recordingStoreFromEnv({ RECORDINGS_DIR: dir }).kind).toBe('local');
    expect(recordingStoreFromEnv({ RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000', RECORDINGS_DIR: dir }).kind).toBe('local');
    const s3 = { RECORDINGS_S3_ENDPOINT: 'http://127.0.0.1:9000', RECORDINGS_S3_BUCKET: 'ghi-am', RECORDINGS_S3_ACCESS_KEY: 'k', RECORDINGS_S3_SECRET_KEY: 's' };
    expect(recordingStoreFromEnv(s3).kind).toBe('s3');
    expect(() => recordingStoreFromEnv({ ...s3, RECORDINGS_S3_SECRET_KEY: '' })).toThrow(/SECRET_KEY/);
  });
});

/**
 * A bucket of an S3-compatible server, in memory, that checks every request's signature the way
 * the server would (recomputed from the request it received) and answers like S3.
 */
function fakeS3(secretKey: string) {
  const objects = new Map<string, Buffer>();
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '');
      const amz = String(req.headers['x-amz-date']);
      const signed = auth?.[4].split(';').filter((n) => !['host', 'x-amz-date', 'x-amz-content-sha256'].includes(n)) ?? [];
      const expected = auth && signV4(
        {
          method: req.method!, url: new URL(req.url!, `http://${req.headers.host}`),
          headers: Object.fromEntries(signed.map((n) => [n, String(req.headers[n])])),
          payloadHash: String(req.headers['x-amz-content-sha256']),
          now: new Date(`${amz.slice(0, 4)}-${amz.slice(4, 6)}-${amz.slice(6, 8)}T${amz.slice(9, 11)}:${amz.slice(11, 13)}:${amz.slice(13, 15)}Z`),
        },
        { accessKey: auth[1], secretKey, region: auth[3], service: 's3' },
      );
      seen.push(`${req.method} ${req.url}`);
      if (!auth || expected!.signature !== auth[5] || sha256Hex(body) !== req.headers['x-amz-content-sha256']) {
        res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
      const path = decodeURIComponent(req.url!);
      if (req.method === 'PUT') objects.set(path, body);
      if (req.method === 'DELETE') objects.delete(path);
      if (req.method === 'GET' && !objects.has(path)) return void res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      res.writeHead(req.method === 'DELETE' ? 204 : 200).end(req.method === 'GET' ? objects.get(path) : undefined);
    });
  });
  return { server, objects, seen };
}

describe('the S3 recording store', () => {
  const s3 = fakeS3('bi-mat-cua-bucket');
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((r) => s3.server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => s3.server.close(() => r())));

  it('puts, gets and deletes path-style objects, signed; a missing object is null; a wrong key is an error', async () => {
    const store = new S3RecordingStore({ endpoint, bucket: 'ghi-am', region: 'ap-southeast-1', accessKey: 'AKIDTONGDAI', secretKey: 'bi-mat-cua-bucket' });
    const key = newRecordingKey(3);
    const bytes = Buffer.from('ID3 một cuộc gọi');
    await store.put(key, bytes);
    expect(s3.seen.at(-1)).toBe(`PUT /ghi-am/${key}`);
    expect([...s3.objects.keys()]).toEqual([`/ghi-am/${key}`]);
    expect(Buffer.compare((await store.get(key))!, bytes)).toBe(0);
    await store.delete(key);
    expect(s3.objects.size).toBe(0);
    expect(await store.get(key)).toBeNull();

    const forged = new S3RecordingStore({ endpoint, bucket: 'ghi-am', region: 'ap-southeast-1', accessKey: 'AKIDTONGDAI', secretKey: 'sai-mat-khau' });
    await expect(forged.put(key, bytes)).rejects.toThrow(/HTTP 403/);
    await expect(forged.get(key)).rejects.toThrow(/HTTP 403/);
    expect(s3.objects.size).toBe(0);
  });
});
