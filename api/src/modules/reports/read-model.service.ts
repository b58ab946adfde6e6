/**
 * The reports module's face for the other modules that show call figures (KPIs, dashboard,
 * monitor): the one read model over the rollups (ADR 0022), nothing else.
 */
export { legFigures, extensionSummary, totals, ReportRangeError, type LegFigures, type ReportRange } from './read-model';
