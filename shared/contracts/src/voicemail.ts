/**
 * Voicemail messages (issue 16): what callers left in a mailbox, as its owner reads them. A user's
 * mailboxes: their extension's, and the shared box of every ring group that extension is in.
 */

/** Tenant API paths (under /t/:ma_dn). */
export const VOICEMAIL_API = {
  list: 'voicemail',
  one: (id: number) => `voicemail/${id}`,
  audio: (id: number) => `voicemail/${id}/audio`,
  /** The message a call left, heard from the call history (recording.listen, the history's scope). */
  ofCall: (id: number) => `reports/voicemail/${id}/audio`,
} as const;

/** A call-history row's voicemail message (the caller's words), for a viewer holding recording.listen. */
export interface VoicemailRef {
  id: number;
  duration_seconds: number;
}

export const VOICEMAIL_MSG = {
  notFound: 'Tin nhắn thoại không tồn tại',
  noExtension: 'Tài khoản của bạn chưa được gán máy nhánh nên không có hộp thư thoại',
  badHeard: 'Giá trị không hợp lệ',
} as const;

export interface VoicemailMessage {
  id: number;
  /** An extension's digits, or group-<ring group id>. */
  mailbox: string;
  /** Who called, as the tenant shows numbers (masked where it hides them). */
  caller: string;
  duration_seconds: number;
  created_at: string;
  /** Listened to (or marked so) by someone with access to the mailbox. */
  heard: boolean;
}

/** GET /voicemail: newest first, with the count of new (unheard) ones for the phone's badge. */
export interface VoicemailList {
  data: VoicemailMessage[];
  unheard: number;
}

/** PATCH /voicemail/:id. */
export interface VoicemailUpdate {
  heard: boolean;
}
