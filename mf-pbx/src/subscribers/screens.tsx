/** /subscribers, /subscribers/add, /subscribers/edit/:id. */
export { default as List } from './SubscriberListScreen';
export { default as Form } from './SubscriberFormScreen';
