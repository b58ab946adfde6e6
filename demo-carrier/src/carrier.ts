import { SipEndpoint, type Remote } from '@tongdai/media/sip/endpoint';
import { header, isInitial, param, uriOf, userOf, type SipRequest } from '@tongdai/media/sip/message';
import { newTag } from '@tongdai/media/sip/dialog';
import { OutboundCall, type CallContext, type CallRecord, type CarrierCall } from './calls';
import { DigestGuard, type Account } from './digest';
import { InboundCall } from './inbound-call';
import { DEFAULT_POPULATION, drawPlan, inPopulation, type PopulationSettings } from './population';
import type { Voice } from './voice';

export interface CarrierOptions {
  /** Address to bind SIP and RTP to (loopback: the demo carrier is never reachable from outside). */
  address: string;
  /** SIP UDP port (0: any free one). */
  port: number;
  realm?: string;
  /** Who may register and call (the switchboard's authentication user and password). */
  accounts: Account[];
  voice: Voice;
  /** Where POST /call sends its INVITE unless the request names a target (Kamailio's UDP address). */
  proxy?: Remote | null;
  /** 180 Ringing → 200 OK (ms). */
  ringMs?: number;
  /** After the announcement, before the carrier's BYE (ms). */
  hangupAfterMs?: number;
  /** A call placed to a hotline that nobody answers is cancelled after this (ms). */
  ringTimeoutMs?: number;
  /** The subscribers behind a range of numbers (default DEFAULT_POPULATION). */
  population?: PopulationSettings;
  /** Where the population's fates are drawn from (default Math.random; tests pass a seeded one). */
  random?: () => number;
  /** Calls kept for calls() (default 200; the dialer's bench counts every call it placed). */
  keepCalls?: number;
  log?: (msg: string) => void;
}

export interface Registration {
  /** The address of record (To of the REGISTER). */
  aor: string;
  user: string;
  contact: string;
  /** Where the REGISTER came from. */
  source: string;
  expires_at: string;
}

export interface RunningCarrier {
  port: number;
  address: string;
  realm: string;
  calls(): CallRecord[];
  registrations(): Registration[];
  /** Places a call to `to` (a hotline) from `from` (a caller's number), to `target` or the proxy. */
  call(o: { to: string; from: string; target?: Remote }): Promise<CallRecord>;
  population(): PopulationSettings;
  /** New settings for the calls to come (checked by the caller: population.ts parsePopulation). */
  setPopulation(s: PopulationSettings): void;
  stop(): void;
}

const KEEP_CALLS = 200;

/**
 * The demo carrier: a SIP UDP endpoint that challenges REGISTER (401) and INVITE (407) with digest,
 * keeps registrations, answers authenticated calls with an announcement (the population's numbers
 * like people: population.ts), and places calls on command. The SIP transaction layer, dialogs and
 * RTP are the media worker's (@tongdai/media).
 */
export async function startCarrier(o: CarrierOptions): Promise<RunningCarrier> {
  const log = o.log ?? ((m: string) => console.log(`${new Date().toISOString()} [demo-carrier] ${m}`));
  const realm = o.realm ?? 'demo-carrier';
  const guard = new DigestGuard(realm, o.accounts);
  const ep = await SipEndpoint.listen(o.address, o.port);
  const live = new Map<string, CarrierCall>();
  const history: CarrierCall[] = [];
  const registrations = new Map<string, Registration & { until: number }>();
  let population = o.population ?? DEFAULT_POPULATION;
  const random = o.random ?? Math.random;
  const ctx: CallContext = {
    ep,
    voice: o.voice,
    log,
    hangupAfterMs: o.hangupAfterMs ?? 500,
    track: (callId, call) => {
      if (!call) return void live.delete(callId);
      live.set(callId, call);
      history.push(call);
      if (history.length > (o.keepCalls ?? KEEP_CALLS)) history.shift();
    },
  };
  const challenge = (req: SipRequest, from: Remote, status: 401 | 407, stale: boolean) =>
    ep.respond(req, from, status, status === 401 ? 'Unauthorized' : 'Proxy Authentication Required', [
      ['x-to-tag', newTag()],
      [status === 401 ? 'www-authenticate' : 'proxy-authenticate', guard.challenge(stale)],
    ]);

  const onRegister = (req: SipRequest, from: Remote) => {
    const check = guard.check('REGISTER', header(req, 'authorization'));
    if (check.result === 'missing' || check.result === 'stale') return void challenge(req, from, 401, check.result === 'stale');
    const aor = uriOf(header(req, 'to') ?? '');
    if (check.result === 'wrong') {
      log(`REGISTER ${aor} from ${from.address}:${from.port}: wrong credentials for "${check.user}", 403`);
      return void ep.respond(req, from, 403, 'Forbidden', [['x-to-tag', newTag()]]);
    }
    const contact = header(req, 'contact') ?? '';
    const expires = Number(param(contact, 'expires') ?? header(req, 'expires') ?? 3600);
    if (contact === '*' || expires === 0) {
      registrations.delete(aor);
      log(`REGISTER ${aor}: unregistered`);
    } else if (contact) {
      registrations.set(aor, { aor, user: check.user ?? '', contact: uriOf(contact), source: `${from.address}:${from.port}`, expires_at: new Date(Date.now() + expires * 1000).toISOString(), until: Date.now() + expires * 1000 });
      log(`REGISTER ${aor} (user ${check.user}) from ${from.address}:${from.port}: 200, ${expires} s`);
    }
    ep.respond(req, from, 200, 'OK', [['x-to-tag', newTag()], ...(contact && expires ? [['contact', `<${uriOf(contact)}>;expires=${expires}`] as [string, string]] : [])]);
  };

  const onInvite = (req: SipRequest, from: Remote) => {
    const check = guard.check('INVITE', header(req, 'proxy-authorization'));
    if (check.result === 'missing' || check.result === 'stale') {
      log(`INVITE ${req.uri} from ${from.address}:${from.port}: 407 (digest${check.result === 'stale' ? ', stale nonce' : ''})`);
      return void challenge(req, from, 407, check.result === 'stale');
    }
    if (check.result === 'wrong') {
      log(`INVITE ${req.uri} from ${from.address}:${from.port}: wrong credentials for "${check.user}", 403`);
      return void ep.respond(req, from, 403, 'Forbidden', [['x-to-tag', newTag()]]);
    }
    ep.respond(req, from, 100, 'Trying');
    const person = inPopulation(population, userOf(req.uri));
    const plan = person ? drawPlan(population, random) : { fate: 'answered' as const, ringMs: o.ringMs ?? 800, talkMs: null };
    new InboundCall(ctx, req, from, plan, person).start().catch((e) => log(`INVITE ${header(req, 'call-id')}: ${e instanceof Error ? e.stack : e}`));
  };

  ep.onRequest = (req, from) => {
    const call = live.get(header(req, 'call-id') ?? '');
    if (call && !(req.method === 'INVITE' && isInitial(req))) return call.onRequest(req, from);
    switch (req.method) {
      case 'REGISTER':
        return onRegister(req, from);
      case 'INVITE':
        if (!isInitial(req)) return void ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
        return onInvite(req, from);
      case 'OPTIONS':
        return void ep.respond(req, from, 200, 'OK', [['accept', 'application/sdp']]);
      case 'ACK':
        return; // of a challenge or a refusal
      default:
        ep.respond(req, from, 481, 'Call/Transaction Does Not Exist');
    }
  };
  log(`listening on udp ${o.address}:${ep.port}, realm "${realm}", accounts ${o.accounts.map((a) => a.user).join(', ')}${o.proxy ? `; calls to hotlines go to ${o.proxy.address}:${o.proxy.port}` : ''}; announcements ${o.voice.spoken ? 'spoken (espeak-ng, vi)' : 'as tones'}`);

  return {
    port: ep.port,
    address: o.address,
    realm,
    calls: () => history.map((c) => c.snapshot()).reverse(),
    registrations: () => {
      for (const [aor, r] of registrations) if (r.until < Date.now()) registrations.delete(aor);
      return [...registrations.values()].map(({ until: _, ...r }) => r);
    },
    call: async ({ to, from, target }) => {
      const dest = target ?? o.proxy;
      if (!dest) throw new Error('no target: the carrier has no proxy configured');
      const call = new OutboundCall(ctx, dest, { to, from });
      await call.start(o.ringTimeoutMs ?? 60_000);
      return call.snapshot();
    },
    population: () => structuredClone(population),
    setPopulation: (s) => {
      population = structuredClone(s);
    },
    stop: () => {
      for (const c of new Set(live.values())) c.hangup();
      ep.close();
    },
  };
}

/** "user:password,user2:password2" → accounts (a password may itself hold ':'). */
export function parseAccounts(s: string): Account[] {
  return s.split(',').map((e) => e.trim()).filter(Boolean).map((e) => {
    const i = e.indexOf(':');
    return i > 0 ? { user: e.slice(0, i), password: e.slice(i + 1) } : { user: e, password: '' };
  });
}

/** "host:port" → a SIP address (default port 5060). */
export function parseRemote(s: string): Remote {
  const [address, port] = s.trim().split(':');
  return { address, port: Number(port || 5060) };
}
