import { timingSafeEqual } from 'node:crypto';
import { EXTENSION_PATTERN, parseGroupMailbox, VOICEMAIL_MSG, type MailboxOpened, type VoicemailList, type VoicemailRef } from '@tongdai/contracts';
import type { Db, Queryable } from '../../db/db';
import { viewerScope, type Viewer } from '../reports/reports.service';
import { AppError } from '../../http/errors';
import { phoneMasker } from '../settings/settings.service';
import * as repo from './voicemail.repository';
import { sendMwi } from './mwi';

/** RIFF/WAVE, 8 kHz, 16-bit mono PCM: what the media worker records (44-byte header, then samples). */
const WAV_HEADER = 44;
const BYTES_PER_SECOND = 16_000;

/** Seconds of audio in a WAV the worker recorded, or null when it is not one (checked, not trusted). */
export function wavSeconds(bytes: Buffer): number | null {
  if (bytes.length < WAV_HEADER || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return null;
  if (bytes.readUInt16LE(20) !== 1 || bytes.readUInt16LE(22) !== 1 || bytes.readUInt32LE(24) !== 8000 || bytes.readUInt16LE(34) !== 16) return null;
  if (bytes.toString('ascii', 36, 40) !== 'data') return null;
  return Math.min(bytes.readUInt32LE(40), bytes.length - WAV_HEADER) / BYTES_PER_SECOND;
}

/**
 * Voicemail (issue 16): the worker's recordings stored per mailbox, and each user's access to the
 * mailboxes that are theirs (their extension's, their ring groups'). Someone else's message is
 * simply not found (RLS keeps other tenants out; the mailbox filter keeps other people out).
 */
export function createVoicemailService(db: Db) {
  const boxes = async (tx: Parameters<Parameters<Db['withTenant']>[1]>[0], userId: number) => repo.mailboxesOf(tx, userId);
  const found = <T>(x: T | null | false): T => {
    if (!x) throw new AppError('NOT_FOUND', [{ field: 'id', message: VOICEMAIL_MSG.notFound }]);
    return x;
  };
  /** After a mailbox changed: its phones' message-waiting lamp (mwi.ts). Never fails the change. */
  const changed = async (tenantId: number, mailbox: string | null): Promise<void> => {
    if (!mailbox || !/^\d{2,6}$/.test(mailbox)) return;
    try {
      const c = await db.withTenant(tenantId, (tx) => repo.mailboxCounts(tx, mailbox));
      if (c) await sendMwi(c.ma_dn, mailbox, c);
    } catch {
      // A lamp not updated is not worth a failed request; the next change updates it.
    }
  };
  return {
    /**
     * The worker's recording of a call's voicemail step: the message's id (null: this call's message
     * was already stored), or null when the bytes are not the worker's WAV.
     */
    async store(m: Omit<repo.NewMessage, 'durationSeconds'>): Promise<{ id: number | null } | null> {
      const seconds = wavSeconds(m.bytes);
      if (seconds === null) return null;
      const id = await db.withTenant(m.tenantId, (tx) => repo.insertMessage(tx, { ...m, durationSeconds: Math.round(seconds * 100) / 100 }));
      if (id !== null) await changed(m.tenantId, m.mailbox);
      return { id };
    },
    /** An extension or a ring group (group-<id>) of the tenant: a mailbox a message may go to. */
    async mailboxExists(tenantId: number, mailbox: string): Promise<boolean> {
      return db.withTenant(tenantId, (tx) => repo.mailboxExists(tx, mailbox));
    },
    async list(tenantId: number, userId: number): Promise<VoicemailList> {
      const hide = await phoneMasker(db, tenantId);
      return db.withTenant(tenantId, async (tx) => {
        const own = await boxes(tx, userId);
        if (!own.length) return { data: [], unheard: 0 };
        const data = await repo.listMessages(tx, own);
        // Another extension's number is not hidden; an outside caller's is where the tenant hides numbers.
        const shown = hide ? data.map((m) => (/^\d{2,6}$/.test(m.caller) ? m : { ...m, caller: hide(m.caller) })) : data;
        return { data: shown, unheard: await repo.countUnheard(tx, own) };
      });
    },
    /**
     * A message heard from the call history (issue 16): the viewer holds recording.listen (the
     * route) and the call that left it is one their call history shows; else "not found".
     */
    async audioOfCall(v: Viewer, id: number): Promise<Buffer> {
      return found(await db.withTenant(v.tenantId, async (tx) => repo.messageOfCallInScope(tx, id, (await viewerScope(tx, v))?.extensions)));
    },
    async audio(tenantId: number, userId: number, id: number): Promise<Buffer> {
      return found(await db.withTenant(tenantId, async (tx) => repo.audioOf(tx, id, await boxes(tx, userId))));
    },
    async setHeard(tenantId: number, userId: number, id: number, heard: boolean): Promise<void> {
      await changed(tenantId, found(await db.withTenant(tenantId, async (tx) => repo.setHeard(tx, id, await boxes(tx, userId), heard))));
    },
    async remove(tenantId: number, userId: number, id: number): Promise<void> {
      await changed(tenantId, found(await db.withTenant(tenantId, async (tx) => repo.deleteMessage(tx, id, await boxes(tx, userId)))));
    },

    /**
     * A phone opening an extension's mailbox (*97 / *98): its own mailbox without a PIN when none
     * is set, any mailbox with its PIN. A mailbox without a PIN never opens from another phone; an
     * unknown mailbox answers as a wrong PIN (nothing tells which mailboxes exist).
     */
    async openByPhone(tenantId: number, mailbox: string, callerExtension: string | null, pin: string | null): Promise<MailboxOpened> {
      return db.withTenant(tenantId, async (tx) => {
        // A ring group's shared box has no PIN: its members open it, nobody else (a PIN cannot).
        const group = parseGroupMailbox(mailbox);
        if (group !== null) {
          if (!callerExtension || !(await repo.isGroupMember(tx, group, callerExtension))) return { error: 'WRONG' };
          return { messages: newFirst(await repo.listMessages(tx, [mailbox])) };
        }
        const set = EXTENSION_PATTERN.test(mailbox) ? await repo.mailboxPin(tx, mailbox) : undefined;
        if (set === undefined) return { error: pin === null ? 'PIN_REQUIRED' : 'WRONG' };
        const own = callerExtension === mailbox;
        if (!(own && set === null)) {
          if (pin === null) return { error: 'PIN_REQUIRED' };
          if (set === null || !samePin(pin, set)) return { error: 'WRONG' };
        }
        return { messages: newFirst(await repo.listMessages(tx, [mailbox])) };
      });
    },
    /** A message of a mailbox a phone opened: its WAV, marked heard, or deleted (false: not in that mailbox). */
    async audioInBox(tenantId: number, mailbox: string, id: number): Promise<Buffer | null> {
      return db.withTenant(tenantId, (tx) => repo.audioOf(tx, id, [mailbox]));
    },
    async heardInBox(tenantId: number, mailbox: string, id: number): Promise<boolean> {
      const box = await db.withTenant(tenantId, (tx) => repo.setHeard(tx, id, [mailbox], true));
      await changed(tenantId, box);
      return box !== null;
    },
    async deleteInBox(tenantId: number, mailbox: string, id: number): Promise<boolean> {
      const box = await db.withTenant(tenantId, (tx) => repo.deleteMessage(tx, id, [mailbox]));
      await changed(tenantId, box);
      return box !== null;
    },
  };
}

/** The voicemail messages of a page of call-history rows, by Call-ID (one statement, in the page's transaction). */
export async function voicemailRefs(tx: Queryable, callIds: readonly string[]): Promise<Map<string, VoicemailRef>> {
  return repo.messagesOfCalls(tx, callIds);
}

/** PINs compared in constant time. */
function samePin(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** A mailbox's messages as the phone menu plays them: new ones first, newest first in each (the list is newest first). */
function newFirst(all: { id: number; heard: boolean }[]): { id: number; heard: boolean }[] {
  return [...all.filter((m) => !m.heard), ...all.filter((m) => m.heard)].map((m) => ({ id: m.id, heard: m.heard }));
}
