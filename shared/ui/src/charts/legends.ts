import { makeStyles, mergeClasses } from '@fluentui/react-components';

/**
 * @fluentui/react-charts' legends capitalise each word (`textTransform: 'capitalize'` in its
 * useLegendsStyles): "Đồng ý" would read "Đồng Ý", "Hẹn gọi lại" "Hẹn Gọi Lại". Vietnamese labels keep
 * their own case: every chart of the app passes its legendProps through this hook (the charts merge
 * `styles.legend` after their own class, so this one wins).
 */
const useStyles = makeStyles({ legend: { textTransform: 'none' } });

/** The chart's legend styles as the charts take them (class names per slot). */
type LegendStyles = { legend?: string } & Record<string, string | undefined>;

/** A chart's `legendProps` (wrap lines, overflow text…) with Vietnamese case kept. */
export function useChartLegendProps<P extends object = object>(props?: P & { styles?: LegendStyles }): P & { styles: LegendStyles & { legend: string } } {
  const s = useStyles();
  return { ...(props as P), styles: { ...props?.styles, legend: mergeClasses(s.legend, props?.styles?.legend) } };
}
