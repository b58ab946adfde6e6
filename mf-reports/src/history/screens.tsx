import type { ReactNode } from 'react';
import type { CallReportRow } from '@tongdai/contracts';
import { useRefetchOnCallEnd } from '@tongdai/platform/react';
import { EntityListScreen, type EntityDef } from '@tongdai/ui';
import { ExportControl } from './ExportControl';
import { callBack, callHistoryEntity, hotlineCallsEntity, successCallsEntity } from './history.entity';
import { RecordingsProvider, useRecordingRows } from './recording/recordings';

/** A list of calls: call back from a row, its recording played under it (one at a time). */
function CallList({ entity, toolbar }: { entity: EntityDef<CallReportRow>; toolbar?: ReactNode }) {
  const recordings = useRecordingRows();
  // A call that ends while the list is open appears in it (issue 30).
  useRefetchOnCallEnd([entity.api.scope, entity.api.name, 'list']);
  return (
    <RecordingsProvider value={recordings.value}>
      <EntityListScreen entity={entity} rowActions={callBack} rowDetail={recordings.detail} toolbar={toolbar} />
    </RecordingsProvider>
  );
}

export function CallHistoryScreen() {
  return <CallList entity={callHistoryEntity} toolbar={<ExportControl endpoint="reports/call-history" file="lich-su-cuoc-goi" />} />;
}

export function SuccessCallsScreen() {
  return <CallList entity={successCallsEntity} toolbar={<ExportControl endpoint="reports/success-calls" file="cuoc-goi-thanh-cong" />} />;
}

/** /etelecom/call-history: the call history through the tenant's hotlines (?hotline=). */
export function HotlineCallsScreen() {
  return <CallList entity={hotlineCallsEntity} />;
}
