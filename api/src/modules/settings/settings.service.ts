/**
 * What other modules may ask of the settings module (they never import its repository): the
 * tenant's system setting (the softphone provider a subscriber gets) and the payment check the
 * guards apply.
 */
export { getPaymentCheck, getSystemSetting } from './settings.repository';

/**
 * Call recording (issue 16): the tenant's mode (the PBX configuration reads it) and the tenants
 * whose recordings expire (the recordings module's retention sweep).
 */
export { getRecordingSettings, recordingRetentions } from './settings.repository';

/** For the customer routes: phone numbers masked as the tenant's setting says (ADR 0006). */
export { maskCustomer, maskCustomerList, phoneMasker } from './phone-masking';
