import type { MonitorSnapshot } from '@tongdai/contracts';

/**
 * A wall in the middle of a day (issue 14's screens and the live-state tests): 101 talks to a
 * carrier caller answered from queue 7, 102 is free, 103 is offline without a user; caller c1
 * waits in queue 7 since t = 5 s. Times are epoch ms on a clock starting at 0.
 */
export function monitorFixture(over: Partial<MonitorSnapshot> = {}): MonitorSnapshot {
  return {
    at: 10_000,
    scope: 'tenant',
    agents: [
      { extension: '101', user_id: 1, full_name: 'Nguyễn Văn An', department_id: 1, team_id: 11, registered: true, status_activity: 1, call_id: 'c2', handled_today: 5 },
      { extension: '102', user_id: 2, full_name: 'Trần Thị Bình', department_id: 1, team_id: 12, registered: true, status_activity: 1, call_id: null, handled_today: 3 },
      { extension: '103', user_id: null, full_name: null, department_id: 2, team_id: null, registered: false, status_activity: null, call_id: null, handled_today: 0 },
    ],
    queues: [
      {
        queue_id: 7, name: 'Chăm sóc khách hàng', sla_seconds: 20, amber_wait_seconds: 30, red_wait_seconds: 60,
        waiting: [{ call_id: 'c1', caller: '0912345678', since: 5_000 }],
        agents_total: 2, agents_free: 1, agents_busy: 1,
        today: { offered: 10, answered: 8, abandoned: 1, service_level: 0.75, avg_wait_sec: 12, avg_talk_sec: 95 },
      },
    ],
    campaigns: [],
    calls: [
      {
        call_id: 'c1', direction: 'inbound', caller: '0912345678', callee: '02873000001', did: '02873000001',
        route: [{ type: 'ivr', id: '3', name: 'Lời chào' }, { type: 'queue', id: '7', name: 'Chăm sóc khách hàng' }],
        state: 'queued', queue_id: 7, ringing: [], extension: null, caller_extension: null, started_at: 2_000, queued_at: 5_000, answered_at: null,
      },
      {
        call_id: 'c2', direction: 'inbound', caller: '0987654321', callee: '02873000001', did: '02873000001',
        route: [{ type: 'queue', id: '7', name: 'Chăm sóc khách hàng' }, { type: 'extension', id: '101', name: '101' }],
        state: 'talking', queue_id: 7, ringing: [], extension: '101', caller_extension: null, started_at: 1_000, queued_at: 1_500, answered_at: 4_000,
      },
    ],
    today: {
      calls: 20, calls_in: 12, calls_out: 6, calls_internal: 2, answered: 15, voicemail: 0, auto: 0, missed: 4, busy: 1, failed: 0, blocked: 0,
      talk_sec: 1500, avg_talk_sec: 100, wait_sec: 240, answer_rate: 0.75, csat_count: 3, csat_avg: 4.3,
    },
    ...over,
  };
}
