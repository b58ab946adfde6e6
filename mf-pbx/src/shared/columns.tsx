import { Badge } from '@fluentui/react-components';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { destinationCode, VOICEMAIL_CODES, type Destination, type DESTINATION_CODES } from '@tongdai/contracts';
import type { EntityColumn as PbxColumn } from '@tongdai/ui';
import { useDescribeDestination } from './pbx.api';
import { PBX_NS } from './pbx.i18n';

/** Column builders the areas share; headers are keys under the area's `fields`. */

const dash = (s: string | null | undefined) => s || '—';

export const nameCol = <T extends { name: string }>(): PbxColumn<T> => ({
  key: 'name', header: 'name', render: (r) => <strong data-testid="row-name">{r.name}</strong>,
});

export const descCol = <T extends { description: string }>(): PbxColumn<T> => ({ key: 'description', header: 'description', render: (r) => dash(r.description) });

/** A destination as a list shows it ("Nhóm đổ chuông: Kinh doanh", null → "Ngắt máy"). */
export function useDescribe() {
  const { t } = useTranslation(PBX_NS);
  return useDescribeDestination(t('hangUp'));
}

/** Destinations named from the tenant's destinations, as one text. */
export function DestinationText({ get, testId, style, title = true }: { get: (describe: ReturnType<typeof useDescribe>) => string; testId: string; style?: CSSProperties; title?: boolean }) {
  const text = get(useDescribe());
  return <span data-testid={testId} title={title ? text : undefined} style={style}>{text}</span>;
}

/** A destination held by the row, named from the tenant's destinations. */
export const destCol = <T,>(key: string, get: (r: T) => Destination | null): PbxColumn<T> => ({
  key, header: key, render: (r) => <DestinationText testId={`row-${key}`} get={(describe) => describe(get(r))} />,
});

/** A fixed-choice value by its label (strategies). */
export const labelCol = <T,>(key: string, labels: Readonly<Record<string, string>>, get: (r: T) => string): PbxColumn<T> => ({
  key, header: key, render: (r) => labels[get(r)] ?? get(r),
});

/** The feature code any phone of the tenant dials to reach this queue / IVR (*41<id>, *42<id>). */
export const dialCodeCol = <T extends { id: number }>(type: keyof typeof DESTINATION_CODES): PbxColumn<T> => ({
  key: 'dial_code', header: 'dial_code', render: (r) => <code data-testid="row-dial_code">{destinationCode(type, r.id)}</code>,
});

/** The feature code a member of this ring group dials for its shared mailbox (*96<id>). */
export const groupMailboxCol = <T extends { id: number }>(): PbxColumn<T> => ({
  key: 'mailbox_code', header: 'mailbox_code', render: (r) => <code data-testid="row-mailbox_code">{`${VOICEMAIL_CODES.group}${r.id}`}</code>,
});

/** A plain value; numbers as strings (a bare 0 would render nothing in a table cell). */
export const textCol = <T,>(key: string, get: (r: T) => string | number, suffix = ''): PbxColumn<T> => ({
  key, header: key, render: (r) => `${String(get(r))}${suffix}`,
});

/** Ordered extensions: "101, 102, 103". */
export const extensionsCol = <T,>(key: string, get: (r: T) => string[]): PbxColumn<T> => ({
  key, header: key, render: (r) => <span data-testid={`row-${key}`}>{dash(get(r).join(', '))}</span>,
});

export const activeCol = <T extends { active: boolean }>(): PbxColumn<T> => ({
  // Wide enough for the longer badge, "Ngừng hoạt động" (the hotline list's sharing columns cut it: "Đang hoạt độn").
  key: 'active', header: 'active', width: '9.5em',
  render: (r, c) => <Badge appearance="tint" color={r.active ? 'success' : 'informative'} style={{ whiteSpace: 'nowrap' }}>{c.t(r.active ? 'pbx:active' : 'pbx:inactive')}</Badge>,
});
