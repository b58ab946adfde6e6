import writeXlsxFile from 'write-excel-file/node';
import { AUDIO_MAX_BYTES, IMPORT_MAX_ROWS, MSG, PBX_MSG } from '@tongdai/contracts';
import { demoHeaders, type TestApp } from '../../../test/helpers';
import { startPbxTest } from '../../../test/pbx-app';
import { mp3, wav, type PbxClient } from '@tongdai/testkit/pbx-kit';
import { xlsxBomb } from '@tongdai/testkit/xlsx-bomb';
import { headerOnlyWav, wavClaiming, wavWithFormat } from '@tongdai/testkit/wav';
import { AUDIO_PROBLEM } from './audio-file';
import { PBX_API_MSG } from './pbx.errors';
import { SHEET_LIMITS } from '../../http/sheet';

type Json = Record<string, unknown>;
const WAV = { name: 'loi-chao.wav', type: 'audio/wav', bytes: wav(1) };

describe('PBX partner API: audio files, inbound import, bulk subscriber delete', () => {
  let t: TestApp;
  let demo: PbxClient;
  let abc: PbxClient;
  let kinhDoanh: number;
  let adminHeaders: Record<string, string>;
  beforeAll(async () => {
    ({ t, demo, abc, kinhDoanh, admin: adminHeaders } = await startPbxTest());
  });
  afterAll(() => t.close());

  describe('greetings and music on hold', () => {
    it('stores a WAV with its duration, size and type, and plays the same bytes back (with Range)', async () => {
      const res = await demo.upload('/partner/greeting?CodeCompany=demo', { name: 'Lời chào chính' }, WAV);
      expect(res.statusCode).toBe(201);
      const g = res.json().data;
      expect(g).toEqual({
        id: expect.any(Number),
        kind: 'greeting',
        name: 'Lời chào chính',
        moh_class: '',
        file_name: 'loi-chao.wav',
        mime: 'audio/wav',
        size_bytes: 16044,
        duration_seconds: 1,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const audio = await demo.get(`/partner/greeting/${g.id}/audio?CodeCompany=demo`);
      expect([audio.statusCode, audio.headers['content-type'], audio.headers['content-length'], audio.headers['accept-ranges']]).toEqual([200, 'audio/wav', '16044', 'bytes']);
      expect(audio.rawPayload.equals(WAV.bytes)).toBe(true);
      const ranged = (range: string) => t.app.inject({ url: `/pbx/partner/greeting/${g.id}/audio`, headers: { ...adminHeaders, range } });
      const part = await ranged('bytes=0-11');
      expect([part.statusCode, part.headers['content-range'], part.headers['content-length']]).toEqual([206, 'bytes 0-11/16044', '12']);
      expect(part.rawPayload.equals(WAV.bytes.subarray(0, 12))).toBe(true);
      expect((await ranged('bytes=-4')).rawPayload.equals(WAV.bytes.subarray(-4))).toBe(true);
      expect((await ranged('bytes=99999-')).statusCode).toBe(416);
      // Not a music-on-hold file, not abc's.
      expect((await demo.get(`/partner/moh/${g.id}/audio`)).statusCode).toBe(404);
      expect((await abc.get(`/partner/greeting/${g.id}/audio`)).statusCode).toBe(404);
      expect((await demo.get(`/partner/greeting?search=${encodeURIComponent('chính')}`)).json().data.map((x: Json) => x.id)).toEqual([g.id]);
      const renamed = await demo.put(`/partner/greeting/${g.id}`, { name: 'Lời chào mới' });
      expect(renamed.json().data).toMatchObject({ name: 'Lời chào mới', size_bytes: 16044, duration_seconds: 1 });
    });

    it('accepts MP3 by its frames and refuses text dressed as mp3, a missing file and a file too large', async () => {
      const song = await demo.upload('/partner/moh', { name: 'Nhạc chờ 1', moh_class: 'vui-tuoi' }, { name: 'nhac.mp3', type: 'audio/mpeg', bytes: mp3(100, true) });
      expect(song.json().data).toMatchObject({ kind: 'moh', moh_class: 'vui-tuoi', mime: 'audio/mpeg', duration_seconds: 2.612, file_name: 'nhac.mp3' });
      const fake = await demo.upload('/partner/greeting', { name: 'Giả' }, { name: 'fake.mp3', type: 'audio/mpeg', bytes: Buffer.from('Đây là văn bản, không phải âm thanh') });
      expect([fake.statusCode, fake.json().details]).toEqual([400, [{ field: 'file', message: PBX_MSG.audioType }]]);
      const none = await demo.upload('/partner/greeting', { name: '' });
      expect(none.json().details).toEqual([
        { field: 'name', message: MSG.required },
        { field: 'file', message: PBX_MSG.audioRequired },
      ]);
      const big = await demo.upload('/partner/greeting', { name: 'To' }, { name: 'to.wav', type: 'audio/wav', bytes: Buffer.concat([wav(1), Buffer.alloc(AUDIO_MAX_BYTES)]) });
      expect([big.statusCode, big.json().details]).toEqual([400, [{ field: 'file', message: PBX_MSG.audioTooLarge(10) }]]);
      const dup = await demo.upload('/partner/moh', { name: 'nhạc chờ 1' }, WAV);
      expect([dup.statusCode, dup.json().message]).toEqual([409, PBX_MSG.nameTaken]);
      expect((await demo.get('/partner/greeting?dataType=all')).json().data.map((x: Json) => x.name)).toEqual(['Lời chào mới']);
      expect((await abc.upload('/partner/greeting', { name: 'Của ABC', ma_dn: 'demo' }, WAV)).statusCode).toBe(403);
    });

    it('refuses a 44-byte header-only WAV, a WAV claiming 4 GB and a broken format as greetings and music (issue 12 §6)', async () => {
      const stored = async () => Number((await t.db.query<{ n: string }>('select count(*) as n from pbx_audio')).rows[0].n);
      const before = await stored();
      for (const [bytes, problem] of [
        [headerOnlyWav(), AUDIO_PROBLEM.tooShort],
        [wavClaiming(0xffffffff), AUDIO_PROBLEM.wavSize],
        [wavWithFormat({ byteRate: 7 }), AUDIO_PROBLEM.wavFormat],
      ] as const) {
        for (const path of ['/partner/greeting', '/partner/moh']) {
          const res = await demo.upload(path, { name: 'Xấu', moh_class: 'xau' }, { name: 'xau.wav', type: 'audio/wav', bytes });
          expect([path, res.statusCode, res.json().details]).toEqual([path, 400, [{ field: 'file', message: problem }]]);
        }
      }
      expect(await stored()).toBe(before);
    });

    it('keeps a greeting or a music class that an IVR, queue or notification uses', async () => {
      const greeting = (await demo.get('/partner/greeting?dataType=all')).json().data[0];
      const msg = (await demo.post('/partner/message', { name: 'Thông báo nghỉ lễ', greeting_id: greeting.id, destination: { type: 'group', target: kinhDoanh } })).json().data;
      expect(msg).toMatchObject({ greeting_id: greeting.id, destination: { type: 'group', target: String(kinhDoanh) } });
      const del = await demo.del(`/partner/greeting/${greeting.id}`);
      expect([del.statusCode, del.json().message]).toEqual([409, PBX_MSG.inUse('Thông báo "Thông báo nghỉ lễ"')]);
      const queue = await demo.post('/partner/queues', { name: 'Hàng đợi nhạc', agents: ['101'], moh_class: 'vui-tuoi', join_greeting_id: greeting.id });
      expect(queue.statusCode).toBe(201);
      const song = (await demo.get('/partner/moh?dataType=all')).json().data[0];
      expect((await demo.del(`/partner/moh/${song.id}`)).json().message).toBe(PBX_MSG.inUse('Hàng đợi "Hàng đợi nhạc"'));
      expect((await demo.put(`/partner/moh/${song.id}`, { name: song.name, moh_class: 'khac' })).json().message).toBe(PBX_MSG.inUse('Hàng đợi "Hàng đợi nhạc"'));
      // A second file of the class: either may go.
      const other = (await demo.upload('/partner/moh', { name: 'Nhạc chờ 2', moh_class: 'vui-tuoi' }, WAV)).json().data;
      expect((await demo.del(`/partner/moh/${song.id}`)).statusCode).toBe(204);
      expect((await demo.del(`/partner/moh/${other.id}`)).statusCode).toBe(409);
      expect((await demo.get('/partner/destinations')).json().data.msg).toEqual({ [msg.id]: 'Thông báo nghỉ lễ' });
    });
  });

  describe('POST /importInbound', () => {
    const HEADER = ['did', 'caller_pattern', 'destination_type', 'destination_target', 'description'];
    /** 47 good rows spread over two DIDs and 3 bad ones (rows 5, 20 and 41 of the sheet). */
    function sheet(prefix: string): string[][] {
      const rows: string[][] = [];
      for (let i = 0; i < 50; i++) {
        const row = i + 2;
        if (row === 5) rows.push(['02899999999', '', 'direct', '101', 'DID của người khác']);
        else if (row === 20) rows.push(['02873000002', `${prefix}19`, 'ivr', '4242', 'IVR không có']);
        else if (row === 41) rows.push(['02873000003', `${prefix}${String(i - 1).padStart(2, '0')}X.`, 'direct', '101', 'Trùng dòng trên']);
        else rows.push([i % 2 ? '02873000002' : '2873000003', `${prefix}${String(i).padStart(2, '0')}X.`, i % 3 ? 'direct' : 'Nhóm đổ chuông', i % 3 ? '102 - Nhân viên tổng đài' : 'Kinh doanh', `Dòng ${row}`]);
      }
      return rows;
    }
    const REFUSED = [
      { row: 5, did: '02899999999', message: PBX_MSG.didUnknown },
      { row: 20, did: '02873000002', message: PBX_MSG.destinationMissing },
      { row: 41, did: '02873000003', message: `${PBX_MSG.inboundTaken} (trùng dòng 40)` },
    ];

    it('imports a CSV (BOM, semicolons, Vietnamese headers) and reports the refused rows', async () => {
      const csv = '\uFEFF' + ['Số DID;Mẫu số gọi;Loại điểm đến;Điểm đến;Mô tả', ...sheet('1').map((r) => r.map((c) => (c.includes(';') ? `"${c}"` : c)).join(';'))].join('\r\n');
      const res = await demo.upload('/importInbound', { ma_dn: 'demo' }, { name: 'tuyen.csv', type: 'text/csv', bytes: Buffer.from(csv) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { imported: 47, refused: REFUSED } });
      const imported = (await demo.get(`/partner/inbound?search=${encodeURIComponent('Dòng')}&page_size=100`)).json().data as Json[];
      expect(imported.find((r) => r.description === 'Dòng 2')).toMatchObject({ did: '02873000003', caller_pattern: '100X.', destination: { type: 'group', target: String(kinhDoanh) } });
      expect(imported.find((r) => r.description === 'Dòng 3')).toMatchObject({ did: '02873000002', destination: { type: 'direct', target: '102' } });
      // The same file again: every row is now a duplicate of the database.
      const again = (await demo.upload('/importInbound', {}, { name: 'tuyen.csv', type: 'text/csv', bytes: Buffer.from(csv) })).json().data;
      expect([again.imported, again.refused.filter((r: Json) => r.message === PBX_MSG.inboundTaken).length]).toEqual([0, 48]);
    });

    it('imports an .xlsx with the same report', async () => {
      const rows = [HEADER, ...sheet('2')].map((r) => r.map((value) => ({ value, type: String })));
      const bytes = await writeXlsxFile(rows, {}).toBuffer();
      const res = await demo.upload('/importInbound', {}, { name: 'tuyen.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes });
      expect(res.json()).toEqual({ data: { imported: 47, refused: REFUSED } });
      expect((await demo.get('/partner/inbound')).json().total).toBe(1 + 47 + 47);
    });

    it('refuses what is not a sheet of inbound routes', async () => {
      const none = await demo.upload('/importInbound', {});
      expect([none.statusCode, none.json().details]).toEqual([400, [{ field: 'file', message: PBX_MSG.fileRequired }]]);
      const png = await demo.upload('/importInbound', {}, { name: 'a.xls', type: 'application/vnd.ms-excel', bytes: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0]) });
      expect(png.json().details).toEqual([{ field: 'file', message: PBX_MSG.fileType }]);
      const columns = await demo.upload('/importInbound', {}, { name: 'a.csv', type: 'text/csv', bytes: Buffer.from('so,ten\n1,2\n') });
      expect(columns.json().details).toEqual([{ field: 'file', message: 'Thiếu cột: did, destination_type, destination_target' }]);
      const many = ['did,destination_type,destination_target', ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, () => '02873000002,direct,101')].join('\n');
      const tooMany = await demo.upload('/importInbound', {}, { name: 'a.csv', type: 'text/csv', bytes: Buffer.from(many) });
      expect(tooMany.json().details).toEqual([{ field: 'file', message: PBX_MSG.importTooMany(IMPORT_MAX_ROWS) }]);
      const required = await demo.upload('/importInbound', {}, { name: 'a.csv', type: 'text/csv', bytes: Buffer.from('did,destination_type,destination_target\n,direct,101\n02873000002,,\n') });
      expect(required.json().data).toEqual({
        imported: 0,
        refused: [
          { row: 2, did: '', message: `Số DID: ${MSG.required}` },
          { row: 3, did: '02873000002', message: PBX_MSG.destinationType },
        ],
      });
    });

    it('refuses a spreadsheet bomb with a 400 in moments while /health keeps answering (issue 12 §1)', async () => {
      const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      const before = (await demo.get('/partner/inbound')).json().total;
      for (const bytes of [xlsxBomb(40), xlsxBomb(40, true)]) {
        expect(bytes.length).toBeLessThan(100 * 1024);
        const started = Date.now();
        let done = false;
        const sent = demo.upload('/importInbound', {}, { name: 'bom.xlsx', type: XLSX, bytes }).finally(() => (done = true));
        // /health asked again and again while the file is read: every answer within a second.
        let slowest = 0;
        do {
          const asked = Date.now();
          expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
          slowest = Math.max(slowest, Date.now() - asked);
          await new Promise((r) => setTimeout(r, 20));
        } while (!done);
        expect(slowest).toBeLessThan(1000);
        const res = await sent;
        expect(Date.now() - started).toBeLessThan(5000);
        expect([res.statusCode, res.json().code, res.json().details]).toEqual([
          400,
          'VALIDATION_FAILED',
          [{ field: 'file', message: PBX_API_MSG.importUnpackedTooLarge(SHEET_LIMITS.maxUnpacked / (1024 * 1024)) }],
        ]);
      }
      expect((await demo.get('/partner/inbound')).json().total).toBe(before);
    });
  });

  describe('DELETE /partner/subscriber/delete/all', () => {
    const subscriberIds = async (headers: Record<string, string>, maDn: string) =>
      ((await t.app.inject({ url: `/t/${maDn}/subscribers?per_page=100`, headers })).json().data as { id: number; extension: string }[]);

    it('deletes the listed extensions of the tenant, or none when one is in use or unknown', async () => {
      const h = await demoHeaders(t.app);
      const made = [];
      for (const ext of ['301', '302', '303']) {
        made.push((await t.app.inject({ method: 'POST', url: '/t/demo/subscribers', headers: h.admin, payload: { extension: ext, display_name: `Máy ${ext}` } })).json().data.id);
      }
      await demo.post('/partner/queues', { name: 'Dùng 303', agents: ['303'] });
      const inUse = await demo.del(`/partner/subscriber/delete/all?ma_dn=demo&ids=${made.join(',')}`);
      expect([inUse.statusCode, inUse.json().message]).toEqual([409, PBX_MSG.inUse('Hàng đợi "Dùng 303"')]);
      const abcIds = (await subscriberIds(h.abcAdmin, 'abc')).map((s) => s.id);
      expect((await demo.del(`/partner/subscriber/delete/all?ids=${made[0]},${abcIds[0]}`)).statusCode).toBe(404);
      expect((await subscriberIds(h.admin, 'demo')).length).toBe(5);
      expect((await demo.del('/partner/subscriber/delete/all?ids=1;2')).json().details).toEqual([{ field: 'ids', message: 'Giá trị không hợp lệ' }]);
      const ok = await demo.del(`/partner/subscriber/delete/all?ma_dn=demo&ids=${made[0]},%20${made[1]}`);
      expect([ok.statusCode, ok.json()]).toEqual([200, { data: { deleted: 2 } }]);
      expect((await subscriberIds(h.admin, 'demo')).map((s) => s.extension)).toEqual(['101', '102', '303']);
      const seeded = (await subscriberIds(h.admin, 'demo')).find((s) => s.extension === '101')!;
      expect((await demo.del(`/partner/subscriber/delete/all?ids=${seeded.id}`)).json().message).toBe(PBX_MSG.inUse('Nhóm đổ chuông "Kinh doanh"'));
    });
  });
});
