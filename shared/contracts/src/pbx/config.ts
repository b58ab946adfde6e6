import type { SwitchboardCarrier } from '../telecom';
import type { RecordingMode } from '../recording';
import type { AudioFile, BlockedNumber, Inbound, Ivr, LastCall, Notification, OutboundRule, PbxNumber, Queue, RingGroup, TimeCondition, TimeGroup } from './objects';

/** Everything the routing engine needs about one tenant (a snapshot read in one transaction). */
export interface PbxConfig {
  tenantId: number;
  maDn: string;
  timezone: string;
  /**
   * voicemail: the extension has a mailbox (a direct call that finds it busy, offline or unanswered
   * goes there instead of 486/480); ring_time: seconds a direct call rings it (engine default 20).
   */
  extensions: {
    extension: string;
    display_name: string;
    user_id: number | null;
    voicemail?: boolean;
    ring_time?: number;
    /** The mailbox's own greeting (a greeting's audio id) and longest message (issue 16). */
    voicemail_greeting_id?: number | null;
    voicemail_max_seconds?: number;
    /** Its own recording mode (null/absent: the tenant's). */
    recording_mode?: RecordingMode | null;
  }[];
  numbers: PbxNumber[];
  inbounds: Inbound[];
  ringGroups: RingGroup[];
  queues: Queue[];
  ivrs: Ivr[];
  notifications: Notification[];
  timeGroups: TimeGroup[];
  /**
   * Vietnam's public holidays in force for the tenant (computed, overrides applied), yyyy-MM-dd, over
   * the years around the snapshot (last year to the year after next: nextStateChange looks 400 days
   * ahead). Time groups with a holiday_mode read them (absent: no holidays).
   */
  holidays?: string[];
  timeConditions: TimeCondition[];
  lastCalls: LastCall[];
  outboundRules: OutboundRule[];
  blocked: BlockedNumber[];
  audio: AudioFile[];
  /**
   * The tenant's switchboards as the call path needs them (issue 15; never the password) and its
   * channel limit over all of them. Optional until every loader fills it.
   */
  switchboards?: SwitchboardRoute[];
  maxChannels?: number;
  /** The tenant's recording mode (issue 16; absent: none). Queues and extensions may set their own. */
  recordingMode?: RecordingMode;
  /** Direct calls go through a media worker so a supervisor can listen to them (issue 16; absent: no). */
  monitorCalls?: boolean;
}

/** A switchboard as routing and Kamailio see it: where to send, how many calls at once. */
export interface SwitchboardRoute {
  id: number;
  name: string;
  /** The carrier the trunk connects to: a fixed/1800/1900 hotline's carrier is its switchboard's. */
  carrier: SwitchboardCarrier;
  host: string;
  port: number;
  transport: 'udp' | 'tcp';
  max_channels: number;
  enabled: boolean;
  register: boolean;
  /** Hotlines of this switchboard (stored form), for the caller-id rule "same carrier". */
  hotlines: string[];
}
