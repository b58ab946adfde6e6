/**
 * The read model's face for other modules (the monitor wall, the dashboard, KPIs): the same
 * functions the reports use, so every screen counts calls one way (ADR 0022).
 */
export { callSeries, extensionSummary, queueSummary, totals, vnDayOf, vnDays, vnToday, type QueueSummary, type ReportRange } from './read-model';
