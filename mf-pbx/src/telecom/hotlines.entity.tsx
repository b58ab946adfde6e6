import {
  FEATURES, HOTLINE_KIND_LABELS, HotlineInputSchema, HotlineUpdateSchema, PERM, SWITCHBOARD_CARRIER_NAMES,
  addPageEditDialog, displayForm, routes, screens, type Hotline,
} from '@tongdai/contracts';
import { Caption1 } from '@fluentui/react-components';
import { AppLink, defineEntity, type EntityDef } from '@tongdai/ui';
import { activeCol, DestinationText } from '../shared/columns';
import '../shared/fieldKinds';
import './fieldKinds';
import { formatHotline } from './hotlineNumber';
import { TELECOM_NS } from './i18n';
import { SwitchboardStatusBadge, wrap } from './switchboards.entity';
import { hotlineResource } from './telecom.api';

const registered = (d: Record<string, unknown>) => d.advertising_identity === true;

/**
 * /etelecom/list-hotline: the hotlines the tenant owns through its switchboards, with their live
 * channels and today's calls; edit in a dialog on the list (the number itself is not renamed:
 * delete and add again). /etelecom/create-hotline adds one (hotlineCreateEntity); the API's 409 for a
 * number another tenant owns names the field `number`, so its message shows under the number.
 * The edit also registers the hotline as an advertising identity (Decree 91's "tên định danh", its
 * registered name and day): the caller IDs an advertising campaign may use.
 */
export const hotlineEntity = defineEntity<Hotline>({
  key: 'hotline', ns: TELECOM_NS, prefix: 'hotline', feature: FEATURES.pbx, permission: PERM.telecom,
  paths: addPageEditDialog(screens.etelecomListHotline, screens.etelecomCreateHotline),
  api: hotlineResource,
  schema: HotlineUpdateSchema,
  fields: [
    { name: 'switchboard_id', kind: 'switchboard', required: true },
    { name: 'destination', kind: 'destination', required: true },
    { name: 'description', kind: 'textarea' },
    { name: 'active', kind: 'switch' },
    // Decree 91: only a hotline registered as a "tên định danh" may present an advertising campaign.
    { name: 'advertising_identity', kind: 'switch', states: 'onOff', hint: true },
    { name: 'advertising_name', kind: 'text', required: true, when: registered },
    { name: 'advertising_registered_on', kind: 'date', required: true, when: registered },
    // The campaign dialer's cap, so that the carrier does not block a number that dials too fast.
    { name: 'max_calls_per_minute', kind: 'int', unit: `${TELECOM_NS}:hotline.perMinute`, hint: true },
  ],
  columns: [
    {
      key: 'number', header: 'number', render: (r, c) => (
        <span style={wrap}>
          <strong data-testid="row-name" data-number={r.number}>{formatHotline(r.number)}</strong>
          <Caption1><span data-testid="row-kind">{HOTLINE_KIND_LABELS[r.kind]}</span> · <span data-testid="row-carrier">{SWITCHBOARD_CARRIER_NAMES[r.carrier]}</span></Caption1>
          {r.advertising_identity && <Caption1 data-testid="row-identity">{c.t('hotline.identityOf', { name: r.advertising_name })}</Caption1>}
          {r.max_calls_per_minute !== null && <Caption1 data-testid="row-rate">{c.t('hotline.rateOf', { count: r.max_calls_per_minute })}</Caption1>}
        </span>
      ),
    },
    {
      key: 'switchboard', header: 'switchboard', render: (r) => (
        <span style={wrap}>
          <span data-testid="row-switchboard">{r.switchboard_name}</span>
          <SwitchboardStatusBadge status={r.switchboard_status} />
        </span>
      ),
    },
    // Its own width (its content wraps): its long header would otherwise set every sharing column's share (tableWidths).
    { key: 'destination', header: 'destination', width: '13em', render: (r) => <DestinationText testId="row-destination" style={wrap} get={(describe) => describe(r.destination)} /> },
    {
      key: 'calls_today', header: 'calls_today', render: (r, c) => (
        <span style={wrap}>
          <span data-testid="row-calls-today">{r.calls_today}</span>
          {/* The number as the call history's hotline filter lists it (0…), so the filter shows it chosen. */}
          <AppLink to={routes.etelecomCallHistory(displayForm(r.number))} testId="hotline-history">{c.t('hotline.history')}</AppLink>
        </span>
      ),
    },
    { key: 'channels', header: 'channels', render: (r) => <span data-testid="row-channels">{r.channels_in_use}</span> },
    activeCol(),
  ],
  rowName: (r) => formatHotline(r.number),
});

/** /etelecom/create-hotline: the number (kind and carrier said as it is typed), its switchboard, where its calls go. */
export const hotlineCreateEntity: EntityDef<Hotline> = {
  ...hotlineEntity,
  schema: HotlineInputSchema,
  fields: [
    { name: 'number', kind: 'hotlineNumber', required: true },
    { name: 'switchboard_id', kind: 'switchboard', required: true },
    { name: 'destination', kind: 'destination', required: true },
    { name: 'description', kind: 'textarea' },
  ],
};

