import { FEATURES, PERM, paths } from '@tongdai/contracts';
import { crudRoutes, i18n, type NavEntry, type RouteDef } from '@tongdai/platform';
import { NS } from '../i18n';

type Screens = typeof import('./screens');
type CampaignScreens = typeof import('../campaigns/screens');
/** One lazy chunk for the survey screens (they share the preview and the dropdowns). */
const screens = (name: keyof Screens) => () => import('./screens').then((m) => m[name]);
/** Campaign screens in their own chunk: their form, progress and import. */
const campaignScreens = (name: keyof CampaignScreens) => () => import('../campaigns/screens').then((m) => m[name]);
const permission = { view: PERM.survey.view, create: PERM.survey.edit, edit: PERM.survey.edit };
const campaignPermission = { view: PERM.campaign.view, create: PERM.campaign.edit, edit: PERM.campaign.edit };
const feature = FEATURES.survey;

export const surveyRoutes: RouteDef[] = [
  ...crudRoutes(paths.surveyCategory, permission, screens('Categories'), feature),
  ...crudRoutes(paths.surveyQuestion, permission, screens('Questions'), feature),
  ...crudRoutes(paths.surveyCampaign, campaignPermission, campaignScreens('SurveyCampaigns'), feature),
  ...crudRoutes(paths.marketingCampaign, campaignPermission, campaignScreens('MarketingCampaigns'), FEATURES.marketing),
  ...crudRoutes(paths.dncNumber, { view: PERM.dnc.view, create: PERM.dnc.edit, edit: PERM.dnc.edit }, () => import('../dnc/screens').then((m) => m.DncNumbers), feature),
  ...crudRoutes(paths.consent, campaignPermission, () => import('../dnc/screens').then((m) => m.Consents), feature),
  // The agent's working screen (preview mode): campaign.run; a marketing campaign opens it with ?family=marketing.
  { path: paths.surveyCampaignStart.pattern, loader: () => import('../campaigns/WorkScreen'), permission: PERM.campaign.run },
];

export const surveyNav = (): NavEntry[] => [
  { label: i18n.t('category.nav', { ns: NS }), path: paths.surveyCategory.list, icon: 'tag', permission: PERM.survey.view, feature },
  { label: i18n.t('question.nav', { ns: NS }), path: paths.surveyQuestion.list, icon: 'question', permission: PERM.survey.view, feature },
  { label: i18n.t('surveyCampaign.nav', { ns: NS }), path: paths.surveyCampaign.list, icon: 'people-call', permission: PERM.campaign.view, feature },
  { label: i18n.t('marketingCampaign.nav', { ns: NS }), path: paths.marketingCampaign.list, icon: 'megaphone', permission: PERM.campaign.view, feature: FEATURES.marketing },
  { label: i18n.t('dnc.nav', { ns: NS }), path: paths.dncNumber.list, icon: 'call-prohibited', permission: PERM.dnc.view, feature },
  { label: i18n.t('consent.nav', { ns: NS }), path: paths.consent.list, icon: 'people-call', permission: PERM.campaign.view, feature },
];
