import type { NavEntry, RouteDef } from '@tongdai/platform';
import { subscribersNav, subscribersRoutes } from './subscribers/subscribers.routes';
import { numbersNav, numbersRoutes } from './numbers/numbers.routes';
import { inboundsNav, inboundsRoutes } from './inbounds/inbounds.routes';
import { ringGroupNav, ringGroupRoutes } from './ringgroup/ringgroup.routes';
import { queueNav, queueRoutes } from './queue/queue.routes';
import { ivrNav, ivrRoutes } from './ivr-details/ivr.routes';
import { notificationsNav, notificationsRoutes } from './notifications/notifications.routes';
import { lastCallsNav, lastCallsRoutes } from './last-calls/last-calls.routes';
import { conditionNav, conditionRoutes } from './conditions/conditions.routes';
import { timeGroupNav, timeGroupRoutes } from './time-groups/time-groups.routes';
import { greetingNav, greetingRoutes, mohNav, mohRoutes } from './audio/audio.routes';
import { outboundNav, outboundRoutes } from './outbound/outbound.routes';
import { blockedNav, blockedRoutes } from './blocked/blocked.routes';
import { telecomNav, telecomRoutes } from './telecom/telecom.routes';
import { voicesNav, voicesRoutes } from './voices/voices.routes';
import { voiceOtpNav, voiceOtpRoutes } from './voice-otp/voice-otp.routes';

/**
 * mf-pbx: the telephone exchange. Each area declares its own routes and navigation; this list
 * (one line per area, in menu order) is all the manifest knows of them.
 */
export const areas: { routes: RouteDef[]; nav: () => NavEntry[] }[] = [
  { routes: subscribersRoutes, nav: subscribersNav },
  { routes: voicesRoutes, nav: voicesNav },
  { routes: numbersRoutes, nav: numbersNav },
  { routes: inboundsRoutes, nav: inboundsNav },
  { routes: ringGroupRoutes, nav: ringGroupNav },
  { routes: queueRoutes, nav: queueNav },
  { routes: ivrRoutes, nav: ivrNav },
  { routes: notificationsRoutes, nav: notificationsNav },
  { routes: conditionRoutes, nav: conditionNav },
  { routes: timeGroupRoutes, nav: timeGroupNav },
  { routes: greetingRoutes, nav: greetingNav },
  { routes: mohRoutes, nav: mohNav },
  { routes: lastCallsRoutes, nav: lastCallsNav },
  { routes: outboundRoutes, nav: outboundNav },
  { routes: blockedRoutes, nav: blockedNav },
  { routes: telecomRoutes, nav: telecomNav },
  { routes: voiceOtpRoutes, nav: voiceOtpNav },
];

/** Every route of the remote (the manifest's, and the app's router). */
export const routes: RouteDef[] = areas.flatMap((a) => a.routes);
