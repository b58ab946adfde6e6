import { makeStyles, mergeClasses } from '@fluentui/react-components';
import { render, screen } from '@testing-library/react';
import { useChartLegendProps } from './legends';

/** As @fluentui/react-charts' useLegendsStyles: its own capitalising class, then `props.styles.legend`, merged. */
const useChartsOwn = makeStyles({ legend: { textTransform: 'capitalize', cursor: 'pointer' } });

function Legend({ props }: { props?: { enabledWrapLines?: boolean; styles?: { legend?: string } } }) {
  const own = useChartsOwn();
  const legendProps = useChartLegendProps(props);
  return (
    <button className={mergeClasses(own.legend, legendProps.styles.legend)} data-wrap={String(legendProps.enabledWrapLines ?? '')}>
      Hẹn gọi lại
    </button>
  );
}

describe('useChartLegendProps', () => {
  it("keeps the legend's Vietnamese case and the chart's own legend props", () => {
    render(<Legend props={{ enabledWrapLines: true, styles: { legend: 'mine' } }} />);
    const legend = screen.getByRole('button', { name: 'Hẹn gọi lại' });
    expect(getComputedStyle(legend).textTransform).toBe('none');
    expect(getComputedStyle(legend).cursor).toBe('pointer');
    expect(legend.className).toContain('mine');
    expect(legend.dataset.wrap).toBe('true');
  });
  it('works with no props', () => {
    render(<Legend />);
    expect(getComputedStyle(screen.getByRole('button')).textTransform).toBe('none');
  });
});
