import { EntityListScreen } from '@tongdai/ui';
import { ExportControl } from './ExportControl';
import { callHistoryEntity, successCallsEntity } from './history.entity';

export function CallHistoryScreen() {
  return <EntityListScreen entity={callHistoryEntity} toolbar={<ExportControl endpoint="reports/call-history" file="lich-su-cuoc-goi" />} />;
}

export function SuccessCallsScreen() {
  return <EntityListScreen entity={successCallsEntity} toolbar={<ExportControl endpoint="reports/success-calls" file="cuoc-goi-thanh-cong" />} />;
}
