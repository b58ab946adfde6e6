import { tenantApi } from '@tongdai/platform';
import type { ListQuery } from '@tongdai/ui';
import { historyParams } from './history.api';
import { saveBlob } from './saveBlob';

export type ExportFormat = 'csv' | 'xlsx';

/** The filters of the list on screen (they live in the URL), as the export call takes them. */
export function filtersOnScreen(): Record<string, string> {
  const url = new URLSearchParams(window.location.search);
  const query: ListQuery = { page: 1 };
  for (const [k, v] of url) if (v && k !== 'page' && k !== 'dialog') query[k] = v;
  const { page: _page, ...rest } = historyParams(query);
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)]));
}

/**
 * Counts the rows that went by in a stream of file bytes: CSV lines (less the header), or the
 * XLSX sheet's </row> tags (the API stores the sheet uncompressed, ADR 0025), less the header row.
 * A tag split across two chunks is found by keeping the last few bytes of each.
 */
function rowCounter(format: ExportFormat): (chunk: Uint8Array) => number {
  const mark = new TextEncoder().encode(format === 'csv' ? '\n' : '</row>');
  let tail = new Uint8Array(0);
  let rows = -1;
  return (chunk) => {
    const bytes = new Uint8Array(tail.length + chunk.length);
    bytes.set(tail);
    bytes.set(chunk, tail.length);
    for (let i = bytes.indexOf(mark[0]); i >= 0 && i + mark.length <= bytes.length; i = bytes.indexOf(mark[0], i + 1)) {
      let j = 1;
      while (j < mark.length && bytes[i + j] === mark[j]) j++;
      if (j === mark.length) rows++;
    }
    tail = bytes.slice(Math.max(0, bytes.length - (mark.length - 1)));
    return Math.max(0, rows);
  };
}

/**
 * Downloads exactly the calls the list is filtered to in the format asked, read as a stream:
 * `onRows` hears how many rows came so far; `signal` cancels (the API stops reading pages).
 */
export async function exportFile(endpoint: string, file: string, format: ExportFormat, onRows: (rows: number) => void, signal: AbortSignal): Promise<void> {
  const res = await tenantApi().get(`${endpoint}/export.${format}`, { searchParams: filtersOnScreen(), timeout: false, signal });
  const reader = res.body!.getReader();
  const count = rowCounter(format);
  const parts: BlobPart[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    onRows(count(value));
  }
  saveBlob(new Blob(parts, { type: res.headers.get('content-type') ?? undefined }), `${file}.${format}`);
}
