/**
 * What other modules may ask of the settings module (they never import its repository): the
 * tenant's system setting (the softphone provider a subscriber gets) and the payment check the
 * guards apply.
 */
export { getPaymentCheck, getSystemSetting } from './settings.repository';
