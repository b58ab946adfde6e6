// `npm run bench`, contact import part (issue 33): a campaign's contact list from an uploaded XLSX of
// BENCH_IMPORT_ROWS rows (100,000 by default) through the API's own route, as the screen sends it —
// the preview first (nothing written), then the import — timed end to end, with the API's resident
// memory sampled every 50 ms meanwhile. Goal: under 30 s and at most +150 MB of API memory.
import { readFileSync } from 'node:fs';
import writeXlsxFile from 'write-excel-file/node';
// The contracts' source, as the API's (the package's entry is not what tsx resolves from here).
import { campaignApi, type CampaignOptions } from '../../shared/contracts/src/campaigns.ts';
import { SURVEY_API } from '../../shared/contracts/src/surveys.ts';
import { figure, type Row } from './sections.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const SURVEY = campaignApi('survey');

/** The process's resident memory now (MB), from /proc. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** The XLSX a tenant would upload: a header, then name, phone and a note per row (distinct mobile numbers). */
async function contactsXlsx(rows: number): Promise<Buffer> {
  const sheet: { value: string }[][] = [[{ value: 'Họ tên' }, { value: 'Số điện thoại' }, { value: 'Ghi chú' }]];
  for (let i = 0; i < rows; i++) sheet.push([{ value: `Khách hàng ${i + 1}` }, { value: `09${String(10_000_000 + i).padStart(8, '0')}` }, { value: i % 7 ? '' : 'VIP' }]);
  return (await writeXlsxFile(sheet, {}).toBuffer()) as Buffer;
}

export async function importFigures(o: { apiUrl: string; token: string; apiPid: number }): Promise<Row[]> {
  const headers = { authorization: `Bearer ${o.token}` };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${o.apiUrl}/t/demo/${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.status === 204 ? null : ((await res.json()) as { data: unknown }).data;
  };
  // A campaign to import into: a question of its own category, the demo's first agent and hotline.
  const category = (await call('POST', SURVEY_API.categories, { name: `Bench nhập danh bạ ${Date.now()}` })) as { id: number };
  const question = (await call('POST', SURVEY_API.questions, { category_id: category.id, kind: 'yes_no', text: 'Anh/chị đồng ý?' })) as { id: number };
  const opts = (await call('GET', SURVEY.options)) as CampaignOptions;
  if (!opts.agents.length || !opts.hotlines.length) throw new Error('the demo tenant has no agent or hotline to make a campaign with');
  const campaign = (await call('POST', SURVEY.base, { name: `Bench nhập ${ROWS} liên hệ ${Date.now()}`, purpose: 'care', question_ids: [question.id], agent_ids: [opts.agents[0].id], hotline_id: opts.hotlines[0].id })) as { id: number };

  const bytes = await contactsXlsx(ROWS);
  const upload = async (commit: boolean) => {
    const form = new FormData();
    if (commit) form.set('commit', '1');
    form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'danh-ba.xlsx');
    const res = await fetch(`${o.apiUrl}/t/demo/${SURVEY.importFile(campaign.id)}`, { method: 'POST', headers, body: form });
    if (!res.ok) throw new Error(`${commit ? 'import' : 'preview'} of ${ROWS} rows: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return ((await res.json()) as { data: unknown }).data;
  };

  const before = rssMb(o.apiPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(o.apiPid))), 50);
  let previewS = 0;
  let importS = 0;
  try {
    const t0 = Date.now();
    await upload(false);
    previewS = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    await upload(true);
    importS = (Date.now() - t1) / 1000;
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, rssMb(o.apiPid));
  const progress = (await call('GET', SURVEY.progress(campaign.id))) as { total: number };
  const saved = progress.total;
  // Not left behind for the sections after this one.
  await call('DELETE', SURVEY.contacts(campaign.id));
  const total = previewS + importS;
  return [
    figure(
      `Contacts from an XLSX of ${ROWS.toLocaleString('en')} rows (${(bytes.length / 1024 / 1024).toFixed(1)} MB): preview, then import`,
      `${total.toFixed(1)} s (preview ${previewS.toFixed(1)} s, import ${importS.toFixed(1)} s); ${saved} of ${ROWS} contacts saved; API memory ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`,
      '< 30 s, ≤ +150 MB',
      saved !== ROWS,
      `${saved} of ${ROWS} contacts saved`,
    ),
  ];
}
