import type { ReactNode } from 'react';
import { Table, TableBody, TableHeader, TableHeaderCell, TableRow, Text } from '@fluentui/react-components';
import { useMonitorStyles } from './styles';

/** A card holding one of the wall's tables: its headers, then the rows given. */
export function WallTable({ label, headers, testId, children }: { label: string; headers: readonly string[]; testId: string; children: ReactNode }) {
  const s = useMonitorStyles();
  return (
    <div className={s.card}>
      <Table aria-label={label} size="small" data-testid={testId}>
        <TableHeader><TableRow>{headers.map((h) => <TableHeaderCell key={h}><Text weight="semibold">{h}</Text></TableHeaderCell>)}</TableRow></TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}
