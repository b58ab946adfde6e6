/**
 * The telecom module's face for other modules: the partner shop keys (HMAC per tenant, rotated with
 * the subscribers' SIP accounts they sign) that subscribers hand out.
 */
export { createShopKeys } from './shop-key';
