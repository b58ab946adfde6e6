import { EntityListScreen } from '@tongdai/ui';
import { customerEntity } from './customers.entity';

export default function CustomerListScreen() {
  return <EntityListScreen entity={customerEntity} />;
}
