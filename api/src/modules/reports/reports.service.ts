/**
 * The reports module's public face for other modules (KPIs, the monitor, the dashboard): who may
 * see whose calls and people (monitor, activity, KPIs too), and the one read model their figures come from (ADR 0022, ADR 0031).
 */
export { viewerOf, viewerScope, type Viewer, type ViewerScope } from './viewer-scope';
export { callSeries, departmentTeamSummary, extensionSummary, totals, vnDays, vnDayStart, vnDayOf, ReportRangeError, type ReportRange } from './read-model';
