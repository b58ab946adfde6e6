import { EntityListScreen } from '@tongdai/ui';
import { ExportControl } from './ExportControl';
import { callBack, callHistoryEntity, hotlineCallsEntity, successCallsEntity } from './history.entity';

export function CallHistoryScreen() {
  return <EntityListScreen entity={callHistoryEntity} rowActions={callBack} toolbar={<ExportControl endpoint="reports/call-history" file="lich-su-cuoc-goi" />} />;
}

export function SuccessCallsScreen() {
  return <EntityListScreen entity={successCallsEntity} rowActions={callBack} toolbar={<ExportControl endpoint="reports/success-calls" file="cuoc-goi-thanh-cong" />} />;
}

/** /etelecom/call-history: the call history through the tenant's hotlines (?hotline=). */
export function HotlineCallsScreen() {
  return <EntityListScreen entity={hotlineCallsEntity} rowActions={callBack} />;
}
