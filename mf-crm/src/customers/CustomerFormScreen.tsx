import { useSearchParams } from 'react-router-dom';
import { EntityFormScreen } from '@tongdai/ui';
import { callCustomer, customerEntity } from './customers.entity';

/** The kit's form; /customer/add?phone=… (the softphone's customer card) starts a new customer with that number; editing one offers to call it. */
export default function CustomerFormScreen() {
  const [query] = useSearchParams();
  return <EntityFormScreen entity={customerEntity} prefill={{ phone: query.get('phone') ?? '' }} actions={callCustomer} />;
}
