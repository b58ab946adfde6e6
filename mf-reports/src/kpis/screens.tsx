import { vnDay } from '@tongdai/contracts';
import { EntityFormScreen, EntityListScreen } from '@tongdai/ui';
import { kpiAddEntity, kpiEntity } from './kpis.entity';

/** /kpis: KPIs with their actual so far; edit in a dialog, delete with confirmation. */
export const KpiListScreen = () => <EntityListScreen entity={kpiEntity} />;

/** /kpi/add: a new KPI starts today unless another day is chosen. */
export const KpiAddScreen = () => <EntityFormScreen entity={kpiAddEntity} prefill={{ start_date: vnDay(new Date()) }} />;
