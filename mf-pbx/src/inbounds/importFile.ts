import { IMPORT_INBOUND_COLUMNS, PBX_MSG } from '@tongdai/contracts';
import { saveBlob } from '@tongdai/ui';

/** The import template: the header row only, with a BOM so Excel reads it as UTF-8. */
export const INBOUND_TEMPLATE_NAME = 'mau-nhap-tuyen-goi-vao.csv';
export const inboundTemplateCsv = (): string => `\uFEFF${IMPORT_INBOUND_COLUMNS.join(',')}\r\n`;

/** What the file input accepts (POST /importInbound takes CSV or .xlsx). */
export const IMPORT_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Checked before sending: a file is chosen and is a .csv or .xlsx (the API checks again). */
export function checkImportFile(file: File | null): string | null {
  if (!file) return PBX_MSG.fileRequired;
  return /\.(csv|xlsx)$/i.test(file.name) ? null : PBX_MSG.fileType;
}

/** Saves text as a file (no server round trip), through the entity kit's download. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  saveBlob(new Blob([text], { type }), name);
}
