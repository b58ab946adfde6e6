import { CONSENT_API, ConsentInputSchema, FEATURES, PERM, paths, type ConsentRecord, type ConsentTerms } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, formatViDay, type PermSet, type Translate } from '@tongdai/ui';
import { NS } from '../i18n';

/** campaign.view reads; campaign.edit records. A consent is evidence: not edited nor deleted (a later one replaces it). */
const permission: PermSet = { view: PERM.campaign.view, create: PERM.campaign.edit };
const LIFTS = ['lifts_window', 'lifts_cap', 'overrides_dnc'] as const;

/** "ngoài 8h–17h · quá 1 cuộc/24 giờ", or that it withdraws an earlier one. */
export const liftsText = (c: ConsentTerms, t: Translate): string => {
  const lifted = LIFTS.filter((k) => c[k]).map((k) => t(`${NS}:consent.lifts.${k}`));
  return lifted.length ? lifted.join(' · ') : t(`${NS}:consent.lifts.none`);
};

/**
 * /marketings/consent: what subscribers agreed to (Decree 91's "thỏa thuận khác"), newest first; the
 * latest of a number is in force and shows on the agent's working screen.
 */
export const consentEntity = defineEntity<ConsentRecord>({
  key: 'consent', ns: NS, prefix: 'consent', paths: paths.consent, permission, feature: FEATURES.survey,
  schema: ConsentInputSchema,
  fields: [
    { name: 'number', kind: 'tel', required: true },
    { name: 'agreed_on', kind: 'date', required: true },
    { name: 'source', kind: 'text', required: true, hint: true },
    { name: 'lifts_window', kind: 'switch', states: 'onOff' },
    { name: 'lifts_cap', kind: 'switch', states: 'onOff' },
    { name: 'overrides_dnc', kind: 'switch', states: 'onOff' },
    { name: 'note', kind: 'textarea' },
  ],
  columns: [
    { key: 'number', header: 'number', width: '130px', render: (r) => <strong data-testid="row-name">{r.number}</strong> },
    { key: 'agreed_at', header: 'agreed_at', width: '110px', render: (r) => formatViDay(r.agreed_at) },
    { key: 'source', header: 'source', render: (r) => <span data-testid="row-source">{r.source}</span> },
    { key: 'lifts', header: 'lifts', render: (r, c) => <span data-testid="row-lifts">{liftsText(r, c.t)}</span> },
    { key: 'recorded_by', header: 'recorded_by', width: '140px', render: (r) => r.recorded_by },
  ],
  api: crudResource({ scope: 'consents', name: 'consent', base: CONSENT_API.list, client: tenantApi }),
  rowName: (r) => r.number,
});
