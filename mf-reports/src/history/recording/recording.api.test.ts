/** @jest-environment node */
// Node's own fetch, Request and Response: the real tenant client (ky) runs as in the browser.
import { RECORDING_MSG } from '@tongdai/contracts';
import { session, setRuntimeConfig, toApiError } from '@tongdai/platform';
import { fetchRecordingAudio, fetchRecordingFile, fileNameOf, recordingMessage } from './recording.api';

const seen: Request[] = [];
let reply: () => Response;
beforeAll(() => {
  setRuntimeConfig({ apis: { cp: 'http://cp.test', identity: 'http://id.test', pbx: 'http://pbx.test', tenant: 'http://api.test/t/{ma_dn}', telecom: 'http://tel.test' }, remotes: {} });
  session.start({ token: 'tok-123', maDn: 'dn1', profile: null, payment: null, user: { name: 'nhan-vien', permissions: [] } as never });
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(input instanceof Request ? input : new Request(input, init));
    return reply();
  }) as typeof fetch;
});
beforeEach(() => { seen.length = 0; });

const mp3 = (headers: Record<string, string> = {}) => new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), { headers: { 'content-type': 'audio/mpeg', ...headers } });

describe('recording calls', () => {
  it("the audio is fetched from the tenant API with the viewer's bearer token, as bytes", async () => {
    reply = () => mp3();
    const blob = await fetchRecordingAudio(7);
    expect(seen.map((r) => [r.method, r.url, r.headers.get('authorization')])).toEqual([['GET', 'http://api.test/t/dn1/recordings/7/audio', 'Bearer tok-123']]);
    expect(blob.size).toBe(4);
  });

  it('the download carries the token too and keeps the file name the API gives', async () => {
    reply = () => mp3({ 'content-disposition': 'attachment; filename="ghi-am-0911000001-20260302.mp3"' });
    const file = await fetchRecordingFile(9);
    expect(seen.map((r) => [r.url, r.headers.get('authorization')])).toEqual([['http://api.test/t/dn1/recordings/9/download', 'Bearer tok-123']]);
    expect(file.name).toBe('ghi-am-0911000001-20260302.mp3');
    expect(file.blob.size).toBe(4);
  });

  it('a 404 is read as a recording deleted, whatever the body says', async () => {
    reply = () => new Response('not found', { status: 404 });
    const error = await fetchRecordingAudio(7).then(() => null, (e: unknown) => e);
    expect(recordingMessage(await toApiError(error))).toBe(RECORDING_MSG.notFound);
    expect(recordingMessage({ status: 403, code: 'FORBIDDEN', message: 'Bạn không có quyền' })).toBe('Bạn không có quyền');
  });
});

describe('fileNameOf', () => {
  it.each([
    ['attachment; filename="cuoc-goi.mp3"', 'cuoc-goi.mp3'],
    ['attachment; filename=cuoc-goi.mp3', 'cuoc-goi.mp3'],
    [`attachment; filename="ghi-am.mp3"; filename*=UTF-8''ghi%20%C3%A2m%20L%C3%A2n.mp3`, 'ghi âm Lân.mp3'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', 'ghi-am-1.mp3'],
    [null, 'ghi-am-1.mp3'],
  ])('%p → %p', (header, name) => {
    expect(fileNameOf(header, 'ghi-am-1.mp3')).toBe(name);
  });
});
