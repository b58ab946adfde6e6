import { EntityListScreen } from '@tongdai/ui';
import { callHistoryEntity, successCallsEntity } from './history.entity';

export function CallHistoryScreen() {
  return <EntityListScreen entity={callHistoryEntity} />;
}

export function SuccessCallsScreen() {
  return <EntityListScreen entity={successCallsEntity} />;
}
