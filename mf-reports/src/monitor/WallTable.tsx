import type { ReactNode } from 'react';
import { Table, TableBody, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { useMonitorStyles } from './styles';

/** A column heading; `className` sets its width (the table's layout is fixed: columns share the rest). */
export type WallHeader = string | { label: string; className: string };

/** A card holding one of the wall's tables: its headers, then the rows given. */
export function WallTable({ label, headers, testId, children }: { label: string; headers: readonly WallHeader[]; testId: string; children: ReactNode }) {
  const s = useMonitorStyles();
  return (
    <div className={s.card}>
      <Table aria-label={label} size="small" data-testid={testId}>
        <TableHeader>
          <TableRow>
            {headers.map((h) => {
              const { label: text, className } = typeof h === 'string' ? { label: h, className: undefined } : h;
              return <TableHeaderCell key={text} className={className}><Text weight="semibold">{text}</Text></TableHeaderCell>;
            })}
          </TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}
