/**
 * What other modules may ask of the settings module (they never import its repository): the
 * tenant's system setting (the softphone provider a subscriber gets) and the payment check the
 * guards apply.
 */
export { getPaymentCheck, getSystemSetting } from './settings.repository';

/** For the customer routes: phone numbers masked as the tenant's setting says (ADR 0006). */
export { maskCustomer, maskCustomerList, phoneMasker } from './phone-masking';
