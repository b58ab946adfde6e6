import { Badge } from '@fluentui/react-components';
import type { Destination } from '@tongdai/contracts';
import type { PbxColumn } from './entity';

/** Column builders the areas share; headers are keys under the area's `fields`. */

const dash = (s: string | null | undefined) => s || '—';

export const nameCol = <T extends { name: string }>(): PbxColumn<T> => ({
  key: 'name', header: 'name', render: (r) => <strong data-testid="row-name">{r.name}</strong>,
});

export const descCol = <T extends { description: string }>(): PbxColumn<T> => ({ key: 'description', header: 'description', render: (r) => dash(r.description) });

/** A destination held by the row, named from the tenant's destinations. */
export const destCol = <T,>(key: string, get: (r: T) => Destination | null): PbxColumn<T> => ({
  key, header: key, render: (r, c) => {
    const text = c.describe(get(r));
    return <span data-testid={`row-${key}`} title={text}>{text}</span>;
  },
});

/** A fixed-choice value by its label (strategies). */
export const labelCol = <T,>(key: string, labels: Readonly<Record<string, string>>, get: (r: T) => string): PbxColumn<T> => ({
  key, header: key, render: (r) => labels[get(r)] ?? get(r),
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
  key: 'active', header: 'active',
  render: (r, c) => <Badge appearance="tint" color={r.active ? 'success' : 'informative'}>{c.t(r.active ? 'pbx:active' : 'pbx:inactive')}</Badge>,
});
