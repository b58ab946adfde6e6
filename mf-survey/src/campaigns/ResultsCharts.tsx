import { useSyncExternalStore } from 'react';
import { Card, Text, makeStyles } from '@fluentui/react-components';
import { DataVizPalette, GroupedVerticalBarChart, getColorFromToken } from '@fluentui/react-charts';
import { CONTACT_RESULTS, CONTACT_RESULT_LABELS, type AttemptOutcomes, type CampaignResults, type QuestionResults } from '@tongdai/contracts';
import { theme } from '@tongdai/platform';
import { countAxis, formatViDate, useChartLegendProps } from '@tongdai/ui';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: '12px' },
  card: { padding: '12px', minWidth: 0 },
});
const PALETTE = [DataVizPalette.color1, DataVizPalette.color2, DataVizPalette.color3, DataVizPalette.color4, DataVizPalette.color5, DataVizPalette.color6, DataVizPalette.color7];
const REFUSED = CONTACT_RESULTS.length;

const LEGEND = { enabledWrapLines: true, overflowText: 'khác' };
/** A day yyyy-mm-dd as the screens write it: dd/mm/yyyy. */
const dayLabel = (day: string) => formatViDate(day);

/**
 * The results' bar charts (@fluentui/react-charts, in this lazily loaded chunk only): answers per
 * question, outcomes per agent and per Vietnam day (one bar per result, refusals in their own
 * colour). The palette's dark variants in dark mode.
 */
export default function ResultsCharts({ results }: { results: CampaignResults }) {
  const s = useStyles();
  const legend = useChartLegendProps(LEGEND);
  const dark = useSyncExternalStore(theme.subscribe, theme.isDark);
  const colour = (i: number) => getColorFromToken(PALETTE[i % PALETTE.length], dark);
  // Only the outcomes that happened in the campaign: bars and a legend without empty entries.
  const all = [...results.agents, ...results.days];
  const shown = CONTACT_RESULTS.filter((r) => all.some((o) => o.by_result[r]));
  const refusals = all.some((o) => o.refused);
  const outcomeSeries = (o: AttemptOutcomes) => [
    ...shown.map((r) => ({ key: r, data: o.by_result[r] ?? 0, legend: CONTACT_RESULT_LABELS[r], color: colour(CONTACT_RESULTS.indexOf(r)) })),
    ...(refusals ? [{ key: 'refused', data: o.refused, legend: 'Bị chặn (Nghị định 91)', color: colour(REFUSED) }] : []),
  ];
  // One count axis for the agents' and the days' charts: every outcome of either.
  const outcomesAxis = countAxis(all.flatMap((o) => outcomeSeries(o).map((x) => x.data)));
  const question = (q: QuestionResults) =>
    q.options.length > 0 && (
      <GroupedVerticalBarChart
        data={q.options.map((o) => ({ name: o.label, series: [{ key: 'n', data: o.count, legend: 'Số câu trả lời', color: colour(0) }] }))}
        height={220} wrapXAxisLables hideLegend chartTitle={q.text} maxBarWidth={40} {...countAxis(q.options.map((o) => o.count))}
      />
    );
  return (
    <div className={s.grid} data-testid="results-charts">
      {results.questions.map((q) => (
        <Card key={q.question_id} className={s.card} data-testid="question-result">
          <Text as="h3" weight="semibold">{q.text}</Text>
          <Text size={200}>
            {q.answered} câu trả lời{q.average !== null ? ` · trung bình ${q.average.toLocaleString('vi-VN')}` : ''}
          </Text>
          {question(q)}
        </Card>
      ))}
      <Card className={s.card} data-testid="agent-chart">
        <Text as="h3" weight="semibold">Kết quả theo nhân viên</Text>
        {results.agents.length > 0
          ? <GroupedVerticalBarChart data={results.agents.map((a) => ({ name: a.name, series: outcomeSeries(a) }))} height={260} wrapXAxisLables chartTitle="Kết quả theo nhân viên" maxBarWidth={24} {...outcomesAxis} legendProps={legend} />
          : <Text size={200}>Chưa có lượt gọi</Text>}
      </Card>
      <Card className={s.card} data-testid="day-chart">
        <Text as="h3" weight="semibold">Kết quả theo ngày</Text>
        {results.days.length > 0
          ? <GroupedVerticalBarChart data={results.days.map((d) => ({ name: dayLabel(d.day), series: outcomeSeries(d) }))} height={260} wrapXAxisLables chartTitle="Kết quả theo ngày" maxBarWidth={24} {...outcomesAxis} legendProps={legend} />
          : <Text size={200}>Chưa có lượt gọi</Text>}
      </Card>
    </div>
  );
}
