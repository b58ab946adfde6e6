import { useSyncExternalStore } from 'react';
import { DataVizPalette, GroupedVerticalBarChart, getColorFromToken } from '@fluentui/react-charts';
import { type OtpStats } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { countAxis, formatViDate, useChartLegendProps } from '@tongdai/ui';

/** A day yyyy-mm-dd as the screens write it: dd/mm. */
const dayLabel = (day: string) => formatViDate(day).slice(0, 5);
const LEGEND = { enabledWrapLines: true };

/**
 * The answered calls per Vietnam day of the list's range (@fluentui/react-charts, in this lazily
 * loaded chunk only): answered and not answered side by side; the palette's dark variants in dark mode.
 */
export default function OtpAnsweredChart({ stats, labels }: { stats: OtpStats; labels: { answered: string; unanswered: string; title: string } }) {
  const legend = useChartLegendProps(LEGEND);
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const answered = getColorFromToken(DataVizPalette.success, dark);
  const unanswered = getColorFromToken(DataVizPalette.error, dark);
  return (
    <GroupedVerticalBarChart
      data={stats.days.map((d) => ({
        name: dayLabel(d.day),
        series: [
          { key: 'answered', data: d.answered, legend: labels.answered, color: answered },
          { key: 'unanswered', data: d.called - d.answered, legend: labels.unanswered, color: unanswered },
        ],
      }))}
      height={220} chartTitle={labels.title} maxBarWidth={16} {...countAxis(stats.days.flatMap((d) => [d.answered, d.called - d.answered]))} legendProps={legend} wrapXAxisLables
    />
  );
}
