import { useSyncExternalStore } from 'react';
import { DataVizPalette, LineChart, getColorFromToken } from '@fluentui/react-charts';
import { DASHBOARD_LABELS as L } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { countAxis, useChartLegendProps } from '@tongdai/ui';
import type { HourPoint } from './dashboard.api';

const label = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * Calls per hour, today against the same weekday last week. Its own chunk (React.lazy in the
 * dashboard): the charts library never loads with the shell (first-load budget, ADR 0002).
 */
export default function HourChart({ today, lastWeek }: { today: HourPoint[]; lastWeek: HourPoint[] }) {
  // The legend keeps Vietnamese case ("Hôm nay", not "Hôm Nay").
  const legendProps = useChartLegendProps();
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const color = (token: string) => getColorFromToken(token, dark);
  const points = (p: HourPoint[]) => p.map((d) => ({ ...d, xAxisCalloutData: label(d.x) }));
  return (
    <LineChart
      height={260}
      data={{
        chartTitle: L.perHour,
        lineChartData: [
          { legend: L.lastWeekSeries, data: points(lastWeek), color: color(DataVizPalette.color3), lineOptions: { strokeDasharray: '5 3' } },
          { legend: L.todaySeries, data: points(today), color: color(DataVizPalette.color1) },
        ],
      }}
      tickValues={[0, 3, 6, 9, 12, 15, 18, 21, 23]}
      {...countAxis([...today, ...lastWeek].map((p) => p.y))}
      legendProps={legendProps}
    />
  );
}
