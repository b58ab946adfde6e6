/**
 * The reports read model's face for other modules (user activity, KPIs, dashboard, monitor): the
 * one way to get call figures (rollups, ADR 0022), nothing else. Every function runs inside db.withTenant.
 */
export { callSeries, extensionDays, extensionSummary, legFigures, queueSummary, totals, vnDays, vnDayStart, vnDayOf, vnToday, ReportRangeError } from './read-model';
export type { ExtensionDay, ExtensionSummary, LegFigures, QueueSummary, ReportRange, SeriesPoint } from './read-model';
