import { EntityListScreen } from '@tongdai/ui';
import { subscriberEntity } from './subscribers.entity';

export default function SubscriberListScreen() {
  return <EntityListScreen entity={subscriberEntity} />;
}
