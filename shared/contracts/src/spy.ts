import { EXTENSION_PATTERN } from './subscribers';

/**
 * A supervisor's listen / whisper / barge (issue 16, ADR 0042). Any phone of the tenant — the
 * browser softphone or a desk phone — dials a feature code followed by the agent's extension; the
 * API lets it through only for a user holding monitor.spy, and the media worker that holds the
 * agent's call mixes the supervisor in. During the call the keys 4 / 5 / 6 switch the mode.
 */

export type SpyMode = 'listen' | 'whisper' | 'barge';

export const SPY_MODES: readonly SpyMode[] = ['listen', 'whisper', 'barge'];

/** Feature codes (FreePBX's ChanSpy family): *222<ext> listen, *223<ext> whisper, *224<ext> barge. */
export const SPY_CODES: Readonly<Record<SpyMode, string>> = { listen: '*222', whisper: '*223', barge: '*224' };

/** Keys the supervisor presses during the call to change mode. */
export const SPY_KEYS: Readonly<Record<string, SpyMode>> = { '4': 'listen', '5': 'whisper', '6': 'barge' };

/** Buttons and the softphone's notice. */
export const SPY_LABELS: Readonly<Record<SpyMode, string>> = { listen: 'Nghe', whisper: 'Nhắc', barge: 'Tham gia' };

/** What each mode does, for tooltips and the documentation. */
export const SPY_HINTS: Readonly<Record<SpyMode, string>> = {
  listen: 'Nghe cuộc gọi, hai bên không nghe thấy bạn',
  whisper: 'Nói với nhân viên, khách hàng không nghe thấy bạn',
  barge: 'Tham gia cuộc gọi, cả ba bên nghe thấy nhau',
};

/** The number a supervisor's phone dials to spy on `extension` in `mode`. */
export const spyNumber = (mode: SpyMode, extension: string): string => `${SPY_CODES[mode]}${extension}`;

/** A dialled number that is a spy code: its mode and the agent's extension, or null. */
export function parseSpyNumber(dialled: string): { mode: SpyMode; extension: string } | null {
  const m = /^(\*22[234])([0-9]{2,6})$/.exec(dialled.trim());
  if (!m) return null;
  const mode = SPY_MODES.find((k) => SPY_CODES[k] === m[1])!;
  return { mode, extension: m[2] };
}

/**
 * Feature codes for the tenant's queues and IVRs (issue 16): *41<queue id> and *42<IVR id> reach
 * them from any phone of the tenant, as an inbound route to them would (a queue or IVR without a
 * number of its own can be tested or transferred to). Listed beside each queue and IVR.
 */
export const DESTINATION_CODES = { queue: '*41', ivr: '*42' } as const;

export const destinationCode = (type: keyof typeof DESTINATION_CODES, id: number): string => `${DESTINATION_CODES[type]}${id}`;

/** A dialled queue / IVR feature code, or null. */
export function parseDestinationCode(dialled: string): { type: keyof typeof DESTINATION_CODES; id: number } | null {
  const m = /^\*4([12])([1-9][0-9]{0,8})$/.exec(dialled.trim());
  return m ? { type: m[1] === '1' ? 'queue' : 'ivr', id: Number(m[2]) } : null;
}

/**
 * Voicemail by phone (issue 16): *97 the caller's own mailbox, *98 another one (asked for, with its
 * PIN), *96<ring group id> the shared mailbox of a ring group the caller's extension is in.
 */
export const VOICEMAIL_CODES = { own: '*97', other: '*98', group: '*96' } as const;

/** The ring group whose shared mailbox a dialled *96<id> names, or null. */
export function parseGroupMailboxCode(dialled: string): number | null {
  const m = /^\*96([1-9][0-9]{0,8})$/.exec(dialled.trim());
  return m ? Number(m[1]) : null;
}

/** A ring group's shared mailbox, as messages name it. */
export const groupMailbox = (groupId: number): string => `group-${groupId}`;

/** The ring group whose shared mailbox `mailbox` is ("group-<id>"), or null (an extension's, or nothing). */
export function parseGroupMailbox(mailbox: string): number | null {
  const m = /^group-([1-9][0-9]{0,8})$/.exec(mailbox);
  return m ? Number(m[1]) : null;
}

/** A mailbox's name: an extension's digits or a ring group's shared box. */
export const isMailboxName = (mailbox: string): boolean => EXTENSION_PATTERN.test(mailbox) || parseGroupMailbox(mailbox) !== null;

/**
 * A call an agent placed to the PBX itself (a supervisor's code, a mailbox): once the media worker
 * answers it, the agent is talking — unlike a greeting or a queue's music, which wait for someone.
 */
export const talksToPbx = (callee: string): boolean => callee.startsWith('*') && parseDestinationCode(callee) === null;
