import * as v from 'valibot';

/**
 * Call recording (issue 16, ADR 0041): which calls are recorded (per tenant, queue and extension),
 * how long recordings are kept, and how a call-history row names its recording.
 */

/** all: every call; inbound / outbound: only calls in that direction (internal calls count as both); none: never. */
export const RECORDING_MODES = ['all', 'inbound', 'outbound', 'none'] as const;
export type RecordingMode = (typeof RECORDING_MODES)[number];

export const RECORDING_MODE_LABELS: Record<RecordingMode, string> = {
  all: 'Ghi âm mọi cuộc gọi',
  inbound: 'Chỉ ghi âm cuộc gọi vào',
  outbound: 'Chỉ ghi âm cuộc gọi ra',
  none: 'Không ghi âm',
};
/** A queue or extension whose mode is null follows the tenant's. */
export const RECORDING_INHERIT_LABEL = 'Theo cài đặt chung của công ty';

export const RECORDING_MSG = {
  mode: 'Chọn một chế độ ghi âm',
  retention: 'Số ngày lưu phải là số nguyên từ 1 đến 3650 (để trống: lưu mãi)',
  notFound: 'Bản ghi âm không tồn tại hoặc đã bị xoá theo thời hạn lưu trữ',
  monitorCalls: 'Chọn bật hoặc tắt giám sát mọi cuộc gọi',
  /** The alarm bar the shell shows the tenant's admins while the storage is full (issue 41); `since` as screens write an instant. */
  storageFull: (since: string) =>
    `Từ ${since}, các cuộc gọi vẫn tiếp tục nhưng bản ghi âm đang chờ lưu. Hãy giải phóng hoặc mở rộng bộ nhớ ghi âm; cảnh báo sẽ tự tắt khi có chỗ trống trở lại.`,
  storageFullTitle: 'Bộ nhớ ghi âm đã đầy',
} as const;

/** Tenant API paths (under /t/:ma_dn). */
export const RECORDING_API = {
  settings: 'recording-settings',
  storage: 'recording-storage',
  audio: (id: number) => `recordings/${id}/audio`,
  download: (id: number) => `recordings/${id}/download`,
} as const;

/** GET/PUT /recording-settings (setting.view / setting.edit). */
export interface RecordingSettings {
  recording_mode: RecordingMode;
  /** Days a recording is kept before it is deleted, file included; null: kept until deleted by hand. */
  retention_days: number | null;
  /**
   * Every call can be listened to by a supervisor (monitor.spy): direct calls that are not recorded
   * go through a media worker too (ADR 0042). Off: only queue, IVR and recorded calls.
   */
  monitor_calls: boolean;
}

const retention = v.union(
  [
    v.null(),
    v.pipe(v.literal(''), v.transform(() => null)),
    v.pipe(v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d{1,4}$/, RECORDING_MSG.retention), v.transform(Number))], RECORDING_MSG.retention), v.integer(RECORDING_MSG.retention), v.minValue(1, RECORDING_MSG.retention), v.maxValue(3650, RECORDING_MSG.retention)),
  ],
  RECORDING_MSG.retention,
);

export const RecordingSettingsSchema = v.object({
  recording_mode: v.picklist(RECORDING_MODES, RECORDING_MSG.mode),
  retention_days: v.optional(retention, null),
  monitor_calls: v.optional(v.boolean(RECORDING_MSG.monitorCalls), false),
});

/** A queue's or extension's own mode (null or '': the tenant's), as their forms send it. */
export const RecordingModeOrInheritSchema = v.union(
  [v.null(), v.pipe(v.literal(''), v.transform(() => null)), v.picklist(RECORDING_MODES, RECORDING_MSG.mode)],
  RECORDING_MSG.mode,
);
/** Left out: the tenant's (a new queue). */
export const OptionalRecordingModeSchema = v.optional(RecordingModeOrInheritSchema, null);

/** What a call-history row says of its recording (null: none, or the viewer may not listen). */
export interface RecordingRef {
  id: number;
  duration_seconds: number;
  /** The viewer holds recording.download. */
  downloadable: boolean;
}

/**
 * Whether a call in `direction` is recorded under `mode`. Internal calls (extension to extension)
 * are both a call made and a call received: recorded under any mode but none.
 */
export function recordsDirection(mode: RecordingMode, direction: 'inbound' | 'outbound' | 'internal'): boolean {
  if (mode === 'none') return false;
  if (mode === 'all' || direction === 'internal') return true;
  return mode === direction;
}

/**
 * Pausing a recording during a call (payment details, issue 16): the worker marks the leg of a party
 * who may pause it with this header (the INVITE it sends an agent, or its 200 to an agent who called),
 * and that party's phone sends SIP INFO of RECORDING_INFO_TYPE with "pause" or "resume" in the dialog.
 */
export const RECORDING_HEADER = 'X-Tongdai-Recording';
export const RECORDING_INFO_TYPE = 'application/x-tongdai-recording';

/**
 * GET /recording-storage (setting.view; issue 41): whether the recordings' storage refused a write
 * for want of space, and since when (ISO time, or null). Calls go on meanwhile; the media workers
 * keep the recordings in their spools and hand them over once there is space again.
 */
export interface RecordingStorageState {
  full_since: string | null;
}

/**
 * The same state pushed on the tenant's real-time channel as it changes (full, or space again), only
 * to the sockets of users holding setting.view; a socket that (re)opens is sent the current state.
 */
export interface RecordingStorageEvent extends RecordingStorageState {
  kind: 'tongdai.recording-storage';
  version: 1;
}

