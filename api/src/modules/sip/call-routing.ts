import { allNumberForms, sipDomain, type PbxConfig } from '@tongdai/contracts';
import { onSipCredentialsChanged } from '../../security/sip-credentials-changed';
import type { FastifyInstance } from 'fastify';
import { isTransientDbError, type Db } from '../../db/db';
import { CallTracker, reviveCall, type ActiveCall, type CallDurability } from '../cdr/call-tracker';
import { CallJournal } from '../cdr/call-journal';
import { callEventWrites } from '../integrations/call-events.service';
import { CdrWriter, lastAnsweringAgent } from '../cdr/cdr.service';
import { applyKamailioEvent, type HeldRegistration } from '../kamailio/call-events';
import { unplannedRecord, type UnplannedCall } from '../kamailio/unplanned-calls';
import { EvapiClient, parseAddress } from '../kamailio/evapi-client';
import { registerKamailioRoutes, reportRegistration } from '../kamailio/kamailio.routes';
import { TenantLookup } from '../kamailio/tenant-lookup';
import { createActivityRecorder } from '../activity/activity-recorder.service';
import { maySpy } from '../monitor/monitor.service';
import { campaignCallerOf } from '../campaigns/work.service';
import { Continuations, type ContinuationStore } from '../media/continuation';
import { registerMediaRoutes } from '../media/media.routes';
import { registerRecordingInternalRoutes, type RecordingStore } from '../recordings/recordings.service';
import { PbxConfigCache, type ConfigLoader } from '../pbx/config-cache';
import type { CallEventHub } from '../realtime/call-event-hub';
import { dialerFigures } from '../campaigns/dialer-live.service';
import { LiveFeed } from '../realtime/live-feed';
import { memoryRegistrations } from '../realtime/registration-store';
import type { LiveState } from '../routing';
import { QueueStats } from './queue-stats';
import { soleLease, type CallPlaneLease } from './call-plane-lease';
import { callOffSwitchboard, callOnSwitchboard, registerTrunkRoutes, SwitchboardDirectory, SwitchboardHosts } from '../trunks/trunks.service';

/** How long a starting API waits for Kamailio's replay of the call events it kept before serving. */
export const KAMAILIO_CATCH_UP_MS = 5000;

export interface CallRoutingOptions {
  /** How long the switchboards (carrier trunks) are reused before they are read again; default 2 s. */
  switchboardsTtlMs?: number;
  /** How long a switchboard host's verdict (its name's answers) is reused before it is judged again; default 60 s. */
  switchboardsDnsTtlMs?: number;
  /** Accept `at` (ISO time) on plan requests, to test time conditions. Off unless asked (main.ts: TONGDAI_TEST_CLOCK=1). */
  testClock?: boolean;
  /** Replaces the PBX configuration loader (tests). */
  loadConfig?: ConfigLoader;
  cdrFlushMs?: number;
  /** Kamailio's evapi address ("127.0.0.1:8448") the call events come from; default KAMAILIO_EVAPI. */
  evapi?: string;
  /** Where ringing / answered / ended go for the browsers (the public server's real-time channel). */
  hub?: CallEventHub;
  /** The shared secret the evapi handshake proves (set by buildInternalServer, ADR 0019). */
  internalSecret?: string;
  /** How often registrations that ran out are looked for (user activity); default 5 s. */
  lapseCheckMs?: number;
  /** Where switchboards may point the PBX (default SwitchboardHosts.fromEnv(); the public server's must be the same, ADR 0043). */
  switchboardHosts?: SwitchboardHosts;
  /** Where the media worker's call recordings go (default: recordingStoreFromEnv(), as the public server's). */
  recordingStore?: RecordingStore;
  /** How young a call Kamailio's dialogs snapshot may lack and stay live (CallTracker.reconcile); default 10 s. */
  reconcileGraceMs?: number;
  /** How long the journal of calls in progress gathers changes before a write (ADR 0046). */
  journalMs?: number;
  /**
   * Whether this instance runs the call plane (ADR 0059; default: held, one instance). A standby
   * answers Kamailio's and the workers' call requests 503 (they ask the other instance) until it
   * holds the lease, then takes the calls over as a restarted API does.
   */
  lease?: CallPlaneLease;
  /** Where a media step's continuation tokens are kept (default: this process's memory; main.ts: Redis when REDIS_URL). */
  continuations?: ContinuationStore;
}

/**
 * What only the instance holding the call plane's lease answers (ADR 0059): plans, the calls it
 * follows, the media steps and placed calls. Credentials, registrations, switchboards, audio files
 * and uploads are the same whichever instance answers.
 */
const CALL_PLANE_PATHS = /^\/internal\/sip\/(route|calls|media\/(session|continue|csat|originate|originated))(\?|$)/;

/**
 * The wiring of call routing on the internal listener: Kamailio's endpoints (kamailio/), the media
 * worker's (media/), the records they leave (cdr/) and the PBX configuration they read (pbx/).
 */
/** Which tenant an extension's SIP domain names, cached (the credentials lookup shares the plan's rule). */
export const callTenantLookup = (db: Db): Pick<TenantLookup, 'ofDomain'> => new TenantLookup(db);

export function registerCallRouting(app: FastifyInstance, db: Db, opts: CallRoutingOptions = {}): CallTracker {
  const lease = opts.lease ?? soleLease();
  const heldAtStart = lease.held;
  // True once this instance holds the lease and has taken the calls over (journal, Kamailio's replay).
  let serving = false;
  app.addHook('onRequest', async (request, reply) => {
    if (serving || !CALL_PLANE_PATHS.test(request.url)) return;
    // Kamailio's http_client tries its other connection on a 5xx; the media worker its other URL.
    return reply.status(503).header('retry-after', '1').send({ code: 'CALL_PLANE_STANDBY', message: 'this API instance stands by: ask the one that holds the call plane' });
  });
  // PBX_CONFIG_TTL_MS: how long a tenant's routing snapshot is trusted with no change heard of it
  // (10 s): every instance hears the changes through Redis; the TTL covers a change no one relayed.
  const configs = new PbxConfigCache(db, { load: opts.loadConfig, ttlMs: Number(process.env.PBX_CONFIG_TTL_MS) || undefined });
  // The CRM's call events (ADR 0065) are written in the journal's and the records' own transactions.
  const writer = new CdrWriter(db, { intervalMs: opts.cdrFlushMs, onError: (err) => app.log.error({ err }, 'CDR write failed'), also: callEventWrites.records });
  // The calls in progress outlive this process (ADR 0046): their state in calls_in_progress, their
  // record's write awaited before the row goes and before Kamailio may forget the event.
  // CALL_JOURNAL_INTERVAL_MS: how long changes gather before one write (20 ms); the fault suite sets
  // it long to kill a process whose journal has not written its calls (the outbox's start event then).
  const journalMs = opts.journalMs ?? (Number(process.env.CALL_JOURNAL_INTERVAL_MS) || undefined);
  const journal = new CallJournal<ActiveCall>(db, { intervalMs: journalMs, onError: (err) => app.log.error({ err }, 'call in progress not saved'), also: callEventWrites.journal });
  const durability: CallDurability = {
    save: (call) => journal.save(call),
    finished: async (call) => {
      await writer.written();
      journal.drop(call.callId, call.tenantId);
      await journal.written();
    },
    saved: () => journal.written(),
    recorded: () => writer.written(),
  };
  const tracker = new CallTracker((row) => writer.add(row), opts.reconcileGraceMs, durability);
  // What rrmemory / leastrecent / fewestcalls remember, shared by every instance (migration 0037).
  const queueStats = new QueueStats(db, (err) => app.log.error({ err }, 'queue statistics not recorded')).follow(tracker);
  const hub = opts.hub;
  // The one registration store (ADR 0038): the hub's (Redis, or memory kept in the database).
  const registrations = hub?.live.registrations ?? memoryRegistrations();
  // Call events and the live state (the wall's snapshot) for the browsers (ADR 0026). "ended" goes
  // out once the call's record is written: a screen that reloads on it (the softphone's recent
  // calls, the wall's figures) finds the call. The wait is the writer's batch, never an extra write.
  const feed = hub ? new LiveFeed(tracker, hub, Date.now, () => writer.written()) : null;
  const sweeper = setInterval(() => tracker.sweep(), 60_000);
  sweeper.unref();
  // A registration that begins or ends is user activity and an event for the wall; those nobody
  // refreshed end at their expiry: Kamailio reports every REGISTER it saves, so the API knows each
  // expiry without asking Kamailio (ADR 0027, 0038).
  const tenants = new TenantLookup(db);
  const activity = createActivityRecorder(db, (err) => app.log.error({ err }, 'activity event not recorded'));
  async function registrationChanged(tenantId: number, extension: string, registered: boolean, at?: Date, reason?: string): Promise<void> {
    feed?.registration(tenantId, extension, registered);
    await activity.registration(tenantId, extension, registered, at, reason);
  }
  const lapses = setInterval(() => void recordLapses().then(resyncMissed), opts.lapseCheckMs ?? 5_000);
  lapses.unref();
  async function recordLapses(): Promise<void> {
    // One instance says a registration lapsed: the one following the calls.
    if (!serving) return;
    const lapsed = await registrations.lapsed().catch((err: unknown) => void app.log.warn({ err }, 'registration sweep failed'));
    for (const l of lapsed ?? []) await registrationChanged(l.tenantId, l.extension, false, l.at, 'expired');
  }
  const evapiAddress = parseAddress(opts.evapi ?? process.env.KAMAILIO_EVAPI);
  const channels = { on: callOnSwitchboard, off: callOffSwitchboard };
  // A call Kamailio refused while no API planned it is recorded for the tenant a plan would have found.
  // Its tenant is looked up again (0.2 s, doubling to 5 s) while the database is away.
  const unplanned = async (call: UnplannedCall) => {
    for (let ms = 200; ; ms = Math.min(ms * 2, 5000)) {
      try {
        return await unplannedRecord(call, { tenants, carrierFor: (tenantId, ip, port) => switchboards.carrierFor(tenantId, ip, port) });
      } catch (err) {
        if (!isTransientDbError(err)) throw err;
        await new Promise((r) => setTimeout(r, ms));
      }
    }
  };
  // Calls a dead media worker held: their dialogs ended by Kamailio (BYE to both sides, issue 41).
  const endCalls = (ids: string[]) => {
    for (const id of ids) events?.end(id);
    app.log.warn(`media worker lost: ${ids.length} calls ended`);
  };
  // Kamailio's location table when the API connects: phones that registered while no API listened
  // (their REGISTER's report failed) are registered here too (issue 41). Only the extensions an
  // AoR names: a registration that ended meanwhile lapses at its expiry, as one never refreshed.
  const onRegistration = (tenantId: number, extension: string, registered: boolean) => registrationChanged(tenantId, extension, registered);
  // A REGISTER reported while PostgreSQL was away (its tenant could not be looked up) is not lost: once
  // the database answers again, Kamailio's location table is asked for (issue 41).
  let missedRegistrations = false;
  const registrationMissed = (err: unknown) => void (isTransientDbError(err) && (missedRegistrations = true));
  async function resyncMissed(): Promise<void> {
    if (!missedRegistrations || !events?.connected) return;
    if (!(await db.query('select 1').then(() => true, () => false))) return;
    missedRegistrations = false;
    if (events.syncRegistrations()) app.log.warn('database back: registrations asked again from Kamailio');
  }
  const held = async (list: HeldRegistration[]) => {
    for (const r of list) {
      if (!/^[0-9]{2,6}$/.test(r.user)) continue;
      await reportRegistration({ tenants, registrations, onRegistration }, r).catch((err: unknown) => {
        registrationMissed(err);
        app.log.warn({ err }, 'registration from Kamailio not recorded');
      });
    }
  };
  const events: EvapiClient | null = evapiAddress ? new EvapiClient(evapiAddress, (raw) => applyKamailioEvent(tracker, raw, channels, unplanned, endCalls, held), opts.internalSecret ?? '') : null;
  // Redis back after an outage (issue 41): it may have lost every registration (no persistence), so
  // Kamailio sends its location table again and no registered extension is taken for offline.
  const stopSync = hub?.onStoreBack?.(() => {
    if (events?.syncRegistrations()) app.log.warn('Redis is back: registrations asked again from Kamailio');
  });
  // The calls an earlier process was following come back first (live state, busy extensions,
  // channels), then Kamailio's events: what it kept unacknowledged arrives right after the handshake.
  // A standby first waits for the lease (released before: nothing to take over).
  const restored = lease.acquired().then(() => journal
    .load(reviveCall)
    .then((calls) => {
      tracker.restore(calls);
      for (const c of calls) if (c.switchboard) channels.on(c.callId, c.tenantId, c.switchboard);
      if (calls.length) app.log.warn(`${calls.length} calls in progress taken over from the journal`);
    })
    .catch((err: unknown) => app.log.error({ err }, 'calls in progress not read; Kamailio\'s dialogs will be reconciled'))
    .finally(() => events?.start()), () => undefined);
  const takenOver = restored.then(async () => {
    if (!lease.held) return;
    if (events && !(await events.caughtUp(KAMAILIO_CATCH_UP_MS))) app.log.warn(`Kamailio's kept call events not all applied within ${KAMAILIO_CATCH_UP_MS} ms of the start (or Kamailio is down): serving, they follow`);
    serving = true;
    if (!heldAtStart) app.log.warn('call plane lease taken: this instance now follows the calls (ADR 0059)');
  });
  // Nothing is served before the calls in progress are back (issue 41, "no undercount"): a wall or a
  // channel count asked right after a restart shows every call, however slow the start (ci4 of
  // 2026-11-26: a loaded machine showed an empty wall for 3 s after the API was answering). A journal
  // that cannot be read holds nothing up: its error is logged and the reconciliation takes over.
  // Then what Kamailio kept unacknowledged (its replay after the welcome): a call the journal missed
  // (the process killed before its batch was written, a few ms after an answer) is there too (ci1 of
  // the twenty-seventh session: an empty wall for 3 s after a restart at load 15). Bounded: a Kamailio
  // that is down holds nothing up (refused at once), a slow one at most KAMAILIO_CATCH_UP_MS.
  // A standby listens at once: it answers what any instance may (credentials, registrations) meanwhile.
  app.addHook('onReady', async () => {
    if (heldAtStart) await takenOver;
  });
  // Carrier trunks (ADR 0036): Kamailio's registrations and the plans read the same directory.
  const hosts = opts.switchboardHosts ?? SwitchboardHosts.fromEnv();
  const switchboards = new SwitchboardDirectory(db, hosts, {
    ttlMs: opts.switchboardsTtlMs,
    dnsTtlMs: opts.switchboardsDnsTtlMs,
    onError: (err) => app.log.error({ err }, 'switchboard block not recorded'),
  });
  registerTrunkRoutes(app, db, switchboards);
  const tenantCode = async (tenantId: number) =>
    (await db.withSystem(async (tx) => (await tx.query<{ ma_dn: string }>('select ma_dn from tenants where id = $1', [tenantId])).rows[0]?.ma_dn)) ?? null;
  // Kamailio's cached HA1s of a tenant go when its extensions' credentials may have changed (ADR 0036).
  const stopForgetting = onSipCredentialsChanged((tenantId) => {
    if (!events) return;
    void tenantCode(tenantId)
      .then((maDn) => maDn && events.forget(`@${sipDomain(maDn)}`))
      .catch((err: unknown) => app.log.warn({ err }, 'cached SIP credentials not forgotten'));
  });
  app.addHook('onClose', async () => {
    stopForgetting();
    stopSync?.();
    clearInterval(sweeper);
    clearInterval(lapses);
    events?.stop();
    serving = false;
    // A standby stops waiting for the lease: it has nothing to take over.
    if (!lease.held) await lease.release();
    await restored;
    await writer.flush();
    await journal.stop();
    await queueStats.flushed();
    // Last, the lease: the instance that takes it reads a journal holding every call this one followed.
    await lease.release();
  });

  /**
   * Live state for the engine: who is registered and busy now, the caller's last agent; for a number
   * an extension dials (`callee`), the campaign whose allowed "Gọi" it is (its hotline is the caller ID;
   * that attempt is linked to the call `callId`, ADR 0050).
   */
  async function liveState(tenantId: number, caller: string, config: PbxConfig, callee?: string, callId?: string): Promise<LiveState> {
    // Every form the caller's number may have been recorded in (CDR lookups for last-call routing).
    const forms = [...new Set([caller, ...allNumberForms(caller)])];
    const last = config.lastCalls?.length ? (tracker.recentAgent(tenantId, forms) ?? (await lastAnsweringAgent(db, tenantId, forms))) : null;
    return {
      registered: await registrations.registered(tenantId),
      busy: tracker.busy(tenantId),
      lastAgent: () => last,
      ...(await queueStats.live(tenantId, config)),
      campaignCaller: callee && config.extensions.some((e) => e.extension === caller) ? await campaignCallerOf(db, tenantId, caller, callee, new Date(), callId ?? null) : null,
    };
  }

  const continuations = opts.continuations ?? new Continuations();
  const config = (tenantId: number, maDn: string) => configs.get(tenantId, maDn);
  registerKamailioRoutes(app, {
    tracker,
    registrations,
    tenants,
    onRegistration,
    registrationMissed,
    continuations,
    events,
    // The directory, not the configuration snapshot: a limit or a switchboard edited elsewhere counts within seconds.
    trunks: async (tenantId) => {
      const { switchboards: list, maxChannels, rules } = await switchboards.ofTenant(tenantId);
      // The rule's ordered switchboards (pbx_outbound_rules.switchboard_ids), read with the switchboards.
      const ruleSwitchboards = (ruleId: number) => rules.get(ruleId) ?? [];
      return { switchboards: list, maxChannels, ruleSwitchboards };
    },
    carrierFor: (tenantId, ip, port) => switchboards.carrierFor(tenantId, ip, port),
    testClock: opts.testClock ?? false,
    config,
    liveState,
    maySpy: (tenantId, extension) => maySpy(db, tenantId, extension),
  });
  registerMediaRoutes(app, {
    db, tracker, continuations, config, liveState, tenantCode, onQueued: feed ? (callId, queueId, agents) => feed.queued(callId, queueId, agents) : undefined,
    dialerMoved: hub ? dialerFigures(db, hub) : undefined, recorded: () => writer.written(),
  });
  registerRecordingInternalRoutes(app, { db, store: opts.recordingStore });
  return tracker;
}
