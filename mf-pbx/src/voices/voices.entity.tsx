import * as v from 'valibot';
import { Badge } from '@fluentui/react-components';
import { FEATURES, PERM, VOICE_REGISTRATION, listPaths, screens, type VoiceSubscriber } from '@tongdai/contracts';
import { tenantApi } from '@tongdai/platform';
import { crudResource, defineEntity, selectFilter } from '@tongdai/ui';
import { VOICES_NS } from './i18n';

const registrationFilter = selectFilter({
  key: 'registration', ns: VOICES_NS, label: 'registration', all: 'allRegistrations', testId: 'registration-filter',
  useOptions: () => Object.entries(VOICE_REGISTRATION).map(([value, label]) => ({ value, label })),
});

/**
 * Voice subscribers (issue 15, /voices/subscribers): the tenant's extensions with their SIP domain,
 * linked user and whether a phone is registered now (GET /voice-subscribers). Read-only here: the
 * extensions are managed on /subscribers; the one action is a password reset (the screen's own).
 */
export const voiceSubscriberEntity = defineEntity<VoiceSubscriber>({
  key: 'voice-subscriber', ns: VOICES_NS, paths: listPaths(screens.voiceSubscribers), permission: { view: PERM.subscriber.view }, feature: FEATURES.pbx,
  schema: v.object({}), fields: [],
  api: crudResource({ scope: 'subscribers', name: 'voice-subscribers', base: 'voice-subscribers', client: tenantApi }),
  rowName: (s) => s.extension,
  filters: [registrationFilter],
  columns: [
    { key: 'extension', header: 'extension', render: (s) => <strong data-testid="voice-extension">{s.extension}</strong> },
    { key: 'sip_domain', header: 'sip_domain', render: (s) => <span data-testid="voice-domain">{s.sip_domain}</span> },
    { key: 'user', header: 'user', render: (s) => <span data-testid="voice-user">{s.user_name ?? '—'}</span> },
    {
      key: 'registered', header: 'registered',
      render: (s) => (
        <Badge appearance="tint" color={s.registered ? 'success' : 'subtle'} data-testid="voice-registration" data-registered={String(s.registered)}>
          {VOICE_REGISTRATION[s.registered ? 'registered' : 'offline']}
        </Badge>
      ),
    },
    { key: 'user_agent', header: 'user_agent', render: (s, { t }) => <span data-testid="voice-agent">{s.user_agent ?? (s.registered ? t('unknownAgent') : '—')}</span> },
  ],
});
