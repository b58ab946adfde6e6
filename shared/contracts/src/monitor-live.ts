/**
 * The live state of the wall in the browser: a MonitorSnapshot moved forward by the events of the
 * real-time channel (PbxCallEvent, MonitorEvent). Pure functions, so the /monitor wall and the
 * dashboard read one state the same way and a unit test can replay a call.
 */
import { talksToPbx } from './spy';
import { formatRate } from './report-summaries';
import { ACTIVITY_STATUSES } from './settings';
import type { PbxCallEvent } from './realtime';
import type { AgentLive, LiveCall, MonitorEvent, MonitorSnapshot, QueueLive } from './monitor';

export type LiveEvent = PbxCallEvent | MonitorEvent;

const mapAgents = (s: MonitorSnapshot, f: (a: AgentLive) => AgentLive): AgentLive[] => s.agents.map(f);
const unqueue = (queues: QueueLive[], callId: string): QueueLive[] =>
  queues.map((q) => (q.waiting.some((w) => w.call_id === callId) ? { ...q, waiting: q.waiting.filter((w) => w.call_id !== callId) } : q));
const queueOf = (queues: QueueLive[], id: number | null | undefined, f: (q: QueueLive) => QueueLive): QueueLive[] =>
  id === null || id === undefined ? queues : queues.map((q) => (q.queue_id === id ? f(q) : q));
const moveAgents = (q: QueueLive, busy: number): QueueLive => {
  const agents_busy = Math.min(q.agents_total, Math.max(0, q.agents_busy + busy));
  return { ...q, agents_busy, agents_free: Math.max(0, Math.min(q.agents_total - agents_busy, q.agents_free - busy)) };
};

function newCall(s: MonitorSnapshot, e: Extract<PbxCallEvent, { type: 'ringing' }>): LiveCall {
  const ours = new Set(s.agents.map((a) => a.extension));
  const fromAgent = ours.has(e.caller);
  return {
    call_id: e.callId, direction: fromAgent ? (ours.has(e.callee) || e.callee.startsWith('*') ? 'internal' : 'outbound') : 'inbound',
    caller: e.caller, callee: e.callee, did: null, route: [], state: 'ringing', queue_id: null, ringing: e.extensions,
    extension: null, caller_extension: fromAgent ? e.caller : null, started_at: e.at, queued_at: null, answered_at: null,
  };
}

/**
 * The state after one event. Unknown calls (outside the viewer's scope, or before the snapshot) only
 * move what the event names. Applying an event to a state that already includes it changes nothing
 * (a snapshot may include an event newer than its `seq`, and an event the channel did not number is
 * applied on top of every snapshot taken while it was heard): a ring of a call held is that call, an
 * answer of a call already talking moves no agent again, an end of a call not held counts nothing.
 */
export function applyLiveEvent(s: MonitorSnapshot, e: LiveEvent): MonitorSnapshot {
  if (e.kind === 'tongdai.monitor') {
    if (e.type === 'registration') return { ...s, agents: mapAgents(s, (a) => (a.extension === e.extension ? { ...a, registered: e.registered } : a)) };
    if (e.type === 'activity') {
      return { ...s, agents: mapAgents(s, (a) => (a.extension === e.extension || (a.user_id !== null && a.user_id === e.userId) ? { ...a, status_activity: e.status_activity } : a)) };
    }
    if (e.type === 'campaign') {
      const others = (s.campaigns ?? []).filter((c) => c.campaign_id !== e.campaignId);
      return { ...s, campaigns: e.campaign ? [...others, e.campaign].sort((a, b) => a.name.localeCompare(b.name, 'vi') || a.campaign_id - b.campaign_id) : others };
    }
    const old = s.calls.find((c) => c.call_id === e.callId);
    const call: LiveCall = old
      ? { ...old, state: old.state === 'talking' ? 'talking' : 'queued', queue_id: e.queueId, queued_at: old.queued_at ?? e.at }
      : { call_id: e.callId, direction: 'inbound', caller: e.caller, callee: '', did: null, route: [], state: 'queued', queue_id: e.queueId, ringing: [], extension: null, caller_extension: null, started_at: e.at, queued_at: e.at, answered_at: null };
    const queues = queueOf(unqueue(s.queues, e.callId), e.queueId, (q) => ({ ...q, waiting: [...q.waiting, { call_id: e.callId, caller: e.caller, since: e.at }].sort((a, b) => a.since - b.since) }));
    return { ...s, calls: old ? s.calls.map((c) => (c === old ? call : c)) : [...s.calls, call], queues };
  }
  if (e.type === 'ringing') {
    // A queue or an IVR choice rings agents on a leg of its own (another call id): the wall shows
    // the call the caller placed, so a ring of an unknown call is that caller's call still waiting.
    const own = s.calls.find((c) => c.call_id === e.callId);
    // A call answered rings no more under its own id: this ring is one the state already went past.
    if (own?.state === 'talking') return s;
    const old = own ?? s.calls.find((c) => c.state !== 'talking' && c.caller === e.caller && !c.caller_extension);
    const call: LiveCall = old ? { ...old, ringing: e.extensions } : newCall(s, e);
    const ringing = new Set([...e.extensions, ...(call.caller_extension ? [call.caller_extension] : [])]);
    return {
      ...s,
      calls: old ? s.calls.map((c) => (c === old ? call : c)) : [...s.calls, call],
      agents: mapAgents(s, (a) => (ringing.has(a.extension) && !a.call_id ? { ...a, call_id: call.call_id } : a)),
    };
  }
  const old = s.calls.find((c) => c.call_id === e.callId);
  if (e.type === 'answered') {
    // The media worker answering (greeting, IVR, a queue's music) is no one talking yet; an agent's
    // call to the PBX itself (*222…, *97) is talking from then on.
    if (!e.extension) {
      if (!old?.caller_extension || old.state !== 'ringing' || !talksToPbx(old.callee)) return s;
      return { ...s, calls: s.calls.map((c) => (c === old ? { ...c, state: 'talking' as const, ringing: [], answered_at: e.at } : c)) };
    }
    const calls = old ? s.calls.map((c) => (c === old ? { ...c, state: 'talking' as const, extension: e.extension, ringing: [], answered_at: e.at } : c)) : s.calls;
    const agents = mapAgents(s, (a) => {
      if (a.extension === e.extension) return { ...a, call_id: e.callId };
      return a.call_id === e.callId ? { ...a, call_id: null } : a;
    });
    // Already talking: the queue's agent was counted busy when it was answered.
    const unqueued = unqueue(s.queues, e.callId);
    return { ...s, calls, agents, queues: old?.state === 'talking' ? unqueued : queueOf(unqueued, old?.queue_id, (q) => moveAgents(q, 1)) };
  }
  const answered = e.disposition === 'ANSWERED';
  const inQueue = old?.queue_id;
  // The agent who answered counts one more call, unless the state no longer holds the call (nor
  // the agent in it): then its end is already in the figures (a snapshot taken after it ended).
  const handled = (a: AgentLive) => answered && a.extension === e.extension && (!!old || a.call_id === e.callId);
  const agents = mapAgents(s, (a) => {
    if (a.call_id !== e.callId && !handled(a)) return a;
    return { ...a, call_id: a.call_id === e.callId ? null : a.call_id, handled_today: a.handled_today + (handled(a) ? 1 : 0) };
  });
  const queues = queueOf(unqueue(s.queues, e.callId), inQueue, (q) => {
    const today = { ...q.today, offered: q.today.offered + 1, answered: q.today.answered + (answered ? 1 : 0), abandoned: q.today.abandoned + (answered ? 0 : 1) };
    return { ...(old?.state === 'talking' ? moveAgents(q, -1) : q), today };
  });
  const today = old
    ? {
        ...s.today,
        calls: s.today.calls + 1,
        calls_in: s.today.calls_in + (old.direction === 'inbound' ? 1 : 0),
        calls_out: s.today.calls_out + (old.direction === 'outbound' ? 1 : 0),
        calls_internal: s.today.calls_internal + (old.direction === 'internal' ? 1 : 0),
        answered: s.today.answered + (answered ? 1 : 0),
        missed: s.today.missed + (e.disposition === 'NO ANSWER' ? 1 : 0),
      }
    : s.today;
  return { ...s, calls: s.calls.filter((c) => c.call_id !== e.callId), agents, queues, today };
}

/**
 * Should the screen take a new snapshot (debounced) after this event? An ended call moves today's
 * figures (the read model has them once the call is recorded); an event of a call the state does
 * not hold yet (a new call, a queue's leg) is shown at once and then completed by the server (route, names).
 */
export function needsSnapshot(before: MonitorSnapshot, e: LiveEvent): boolean {
  if (e.kind === 'tongdai.pbx-call' && e.type === 'ended') return true;
  if (e.kind === 'tongdai.monitor' && e.type !== 'queued') return false;
  return !before.calls.some((c) => c.call_id === e.callId);
}

/** Does the state already include this event? Only known when both carry their position on the channel. */
export function includesEvent(s: MonitorSnapshot, e: LiveEvent): boolean {
  return s.seq !== undefined && e.seq !== undefined && e.seq <= s.seq;
}

/**
 * The state after the events it does not include yet (see includesEvent), its `seq` moved to the
 * last one applied: a snapshot the server computed while these events were on their way, or the
 * state the screen holds as the next batch arrives.
 */
export function catchUp(s: MonitorSnapshot, events: readonly LiveEvent[]): MonitorSnapshot {
  let next = s;
  for (const e of events) {
    if (includesEvent(next, e)) continue;
    next = applyLiveEvent(next, e);
    if (next.seq !== undefined && e.seq !== undefined) next = { ...next, seq: e.seq };
  }
  return next;
}

export type QueueTone = 'green' | 'amber' | 'red';

/** A queue tile's colour by its longest wait now, against the queue's thresholds. */
export function queueTone(q: QueueLive, now: number): QueueTone {
  if (!q.waiting.length) return 'green';
  const longest = longestWait(q, now);
  if (longest >= q.red_wait_seconds) return 'red';
  return longest >= q.amber_wait_seconds ? 'amber' : 'green';
}

/** A queue's service level today as the tile shows it: "—" when no call was offered (not 0 %). */
export function serviceLevelText(today: Pick<QueueLive['today'], 'offered' | 'service_level'>): string {
  return today.offered ? formatRate(today.service_level) : '—';
}

/** Seconds the queue's longest-waiting caller has waited (0 with nobody waiting). */
export function longestWait(q: QueueLive, now: number): number {
  return q.waiting.length ? Math.max(0, Math.floor((now - Math.min(...q.waiting.map((w) => w.since))) / 1000)) : 0;
}

/** The Vietnamese label of a status_activity value (the settings screen's), "—" without a user. */
export function activityLabel(status: number | null): string {
  if (status === null) return '—';
  return ACTIVITY_STATUSES.find((a) => a.value === status)?.label ?? `Trạng thái ${status}`;
}

/** Vietnamese words of the wall and the dashboard. */
export const MONITOR_LABELS = {
  title: 'Giám sát trực tiếp',
  agents: 'Nhân viên',
  queues: 'Hàng đợi',
  calls: 'Cuộc gọi đang diễn ra',
  extension: 'Máy nhánh',
  person: 'Người dùng',
  registration: 'Kết nối',
  registered: 'Trực tuyến',
  offline: 'Ngoại tuyến',
  activity: 'Trạng thái',
  currentCall: 'Cuộc gọi hiện tại',
  duration: 'Thời lượng',
  handledToday: 'Đã nghe hôm nay',
  free: 'Rảnh',
  ringing: 'Đang đổ chuông',
  talking: 'Đang đàm thoại',
  queued: 'Đang chờ',
  waiting: 'Khách đang chờ',
  longestWait: 'Chờ lâu nhất',
  agentsFree: 'Nhân viên rảnh',
  agentsBusy: 'Nhân viên bận',
  offered: 'Cuộc vào',
  answered: 'Trả lời',
  abandoned: 'Bỏ cuộc',
  serviceLevel: 'Mức phục vụ',
  serviceLevelWithin: (s: number) => `Mức phục vụ (${s} giây)`,
  avgWait: 'Chờ TB',
  avgTalk: 'Đàm thoại TB',
  route: 'Luồng cuộc gọi',
  caller: 'Số gọi',
  callee: 'Số nhận',
  state: 'Trạng thái',
  direction: { inbound: 'Gọi vào', outbound: 'Gọi ra', internal: 'Nội bộ' },
  sort: 'Sắp xếp',
  sorts: { extension: 'Theo máy nhánh', name: 'Theo tên', state: 'Theo trạng thái', handled: 'Theo số cuộc đã nghe' },
  wallboard: 'Chế độ màn hình lớn',
  exitWallboard: 'Thoát màn hình lớn',
  noAgents: 'Chưa có máy nhánh nào để giám sát',
  noQueues: 'Chưa có hàng đợi nào',
  noCalls: 'Không có cuộc gọi nào đang diễn ra',
  noWaiting: 'Không có khách chờ',
  loadError: 'Không tải được dữ liệu giám sát',
  live: 'Đang cập nhật trực tiếp',
  reconnecting: 'Mất kết nối, đang kết nối lại…',
  ownScope: 'Bạn đang xem cuộc gọi của chính mình',
  departmentScope: 'Bạn đang xem cuộc gọi của phòng ban bạn quản lý',
  teamScope: 'Bạn đang xem cuộc gọi của nhóm bạn phụ trách',
  campaigns: 'Chiến dịch gọi tự động',
  campaignModes: { progressive: 'Tiến dần', predictive: 'Dự đoán', voice: 'Khảo sát tự động' },
  campaignPaused: 'Tạm dừng',
  dialing: 'Đang gọi khách',
  connected: 'Đang nói chuyện',
  agentsReady: 'Nhân viên sẵn sàng',
  contactsAnswered: 'Khách đã nghe máy',
  dialerAbandoned: 'Bỏ lỡ (không có nhân viên)',
  hotlineMinute: 'Hotline trong 1 phút qua',
} as const;

export const DASHBOARD_LABELS = {
  today: 'Cuộc gọi hôm nay',
  ownToday: 'Cuộc gọi của bạn hôm nay',
  callsIn: 'Gọi vào',
  callsOut: 'Gọi ra',
  answered: 'Trả lời',
  missed: 'Nhỡ',
  agentsOnline: 'Nhân viên trực tuyến',
  myLine: 'Máy nhánh của bạn',
  waitingNow: 'Khách đang chờ',
  longestWait: 'Chờ lâu nhất',
  perHour: 'Cuộc gọi theo giờ: hôm nay và cùng ngày tuần trước',
  todaySeries: 'Hôm nay',
  lastWeekSeries: 'Cùng ngày tuần trước',
  openReport: 'Xem báo cáo',
  openMonitor: 'Mở màn hình giám sát',
  noChart: 'Chưa có cuộc gọi nào hôm nay và cùng ngày tuần trước',
  csatToday: 'Hài lòng (CSAT) hôm nay',
  csatRated: 'cuộc gọi được đánh giá',
} as const;
