import { hasPermission, isFeatureEnabled } from '@tongdai/contracts/lean';
import { session } from './session';

/** SPEC §6 permission check against the session user. */
export function can(permission: string | undefined): boolean {
  return !permission || hasPermission(session.get().user, permission);
}

/** Purchased and not expired (payment check). A route without a feature needs none. */
export function featureEnabled(feature: string | undefined, now = new Date()): boolean {
  return isFeatureEnabled(session.get().payment, feature, now);
}

/** Both gates of a route or navigation entry. */
export function canAccess(target: { permission?: string; feature?: string }): boolean {
  return can(target.permission) && featureEnabled(target.feature);
}
