import { useSyncExternalStore } from 'react';
import { Card, Text, makeStyles } from '@fluentui/react-components';
import { DataVizPalette, GroupedVerticalBarChart, getColorFromToken } from '@fluentui/react-charts';
import type { KpiDepartmentRow } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { useChartLegendProps } from '@tongdai/ui';

const useStyles = makeStyles({ card: { padding: '16px', minWidth: 0 } });
const PALETTE = [DataVizPalette.color1, DataVizPalette.color2, DataVizPalette.color3, DataVizPalette.color4, DataVizPalette.color5, DataVizPalette.color6, DataVizPalette.color7, DataVizPalette.color8];

/**
 * Departments side by side, one bar per KPI: the share of its target reached so far (%). A KPI
 * name keeps its colour across departments; the palette's dark variants in dark mode.
 */
export default function KpiChart({ data, title }: { data: KpiDepartmentRow[]; title: string }) {
  const s = useStyles();
  const legendProps = useChartLegendProps();
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const names = [...new Set(data.flatMap((d) => d.kpis.map((k) => k.name)))];
  const color = (name: string) => getColorFromToken(PALETTE[names.indexOf(name) % PALETTE.length], dark);
  const groups = data.map((d) => ({
    name: d.department,
    series: d.kpis.map((k) => ({ key: `k${k.id}`, data: k.progress.percent, legend: k.name, color: color(k.name), yAxisCalloutData: `${k.progress.percent}%` })),
  }));
  return (
    <Card className={s.card} data-testid="kpi-chart">
      <Text as="h2" weight="semibold">{title}</Text>
      {/* The axis reaches 100 % at least, so a bar is read against the whole target. */}
      <GroupedVerticalBarChart data={groups} height={300} wrapXAxisLables chartTitle={title} barWidth="auto" maxBarWidth={48}
        yMaxValue={Math.max(100, ...groups.flatMap((g) => g.series.map((x) => x.data)))} yAxisTickFormat={(v: number) => `${v}%`} legendProps={legendProps} />
    </Card>
  );
}
