import { useSyncExternalStore } from 'react';
import { Card, Text, makeStyles } from '@fluentui/react-components';
import { DataVizPalette, GroupedVerticalBarChart, LineChart, getColorFromToken } from '@fluentui/react-charts';
import { SUMMARY_LABELS as L, type DepartmentTeamSummaryResponse } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { countAxis, formatViDay, formatViTime, useChartLegendProps } from '@tongdai/ui';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: '16px' },
  card: { padding: '16px', minWidth: 0 },
});


/**
 * The two charts of /history-by-department-team (@fluentui/react-charts, in this chunk only):
 * answered vs missed per team, and calls per hour (ranges up to two days) or per Vietnam day.
 * The palette's colours are taken in their dark variant in dark mode so bars and lines stay readable.
 */
export default function SummaryCharts({ data }: { data: DepartmentTeamSummaryResponse }) {
  const s = useStyles();
  const legendProps = useChartLegendProps();
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const color = (token: string) => getColorFromToken(token, dark);
  const teams = data.data.flatMap((d) =>
    d.teams.map((t) => ({
      name: `${t.team ?? L.noTeam}${t.team_id === null ? ` (${d.department ?? L.noDepartment})` : ''}`,
      series: [
        { key: 'answered', data: t.answered, legend: L.answered, color: color(DataVizPalette.success) },
        { key: 'missed', data: t.missed, legend: L.missed, color: color(DataVizPalette.warning) },
      ],
    })),
  );
  const perHour = data.series.bucket === 'hour';
  const label = (at: string) => (perHour ? formatViTime(at) : formatViDay(at).slice(0, 5));
  const points = data.series.points.map((p) => ({ x: new Date(p.at), y: p.calls, xAxisCalloutData: label(p.at) }));
  return (
    <div className={s.grid}>
      <Card className={s.card} data-testid="chart-teams">
        <Text as="h2" weight="semibold">{L.chartAnsweredMissed}</Text>
        <GroupedVerticalBarChart data={teams} height={300} wrapXAxisLables chartTitle={L.chartAnsweredMissed} {...countAxis(teams.flatMap((t) => t.series.map((x) => x.data)))} legendProps={legendProps} />
      </Card>
      <Card className={s.card} data-testid="chart-series">
        <Text as="h2" weight="semibold">{perHour ? L.chartPerHour : L.chartPerDay}</Text>
        <LineChart
          height={280}
          data={{ chartTitle: perHour ? L.chartPerHour : L.chartPerDay, lineChartData: [{ legend: L.calls, data: points, color: color(DataVizPalette.color1) }] }}
          customDateTimeFormatter={(d: Date) => label(d.toISOString())}
          {...countAxis(points.map((p) => p.y))}
          legendProps={legendProps}
        />
      </Card>
    </div>
  );
}
