import type { AgentLive, LiveCall, MonitorSnapshot } from '@tongdai/contracts';

/** What an agent's row shows first: offline, talking, ringing, or free. */
export type AgentState = 'offline' | 'talking' | 'ringing' | 'free';

export interface AgentRow extends AgentLive {
  state: AgentState;
  call: LiveCall | null;
  /** The number at the other end of the agent's call. */
  party: string | null;
  /** Epoch ms the shown duration runs from (answered, or ringing since the call began). */
  since: number | null;
}

export function agentRows(s: MonitorSnapshot): AgentRow[] {
  const calls = new Map(s.calls.map((c) => [c.call_id, c]));
  return s.agents.map((a) => {
    const call = (a.call_id && calls.get(a.call_id)) || null;
    const talking = call?.state === 'talking' && (call.extension === a.extension || call.caller_extension === a.extension);
    const state: AgentState = talking ? 'talking' : call ? 'ringing' : a.registered ? 'free' : 'offline';
    const party = call ? (call.caller_extension === a.extension ? call.callee : call.caller) : null;
    return { ...a, state, call, party, since: call ? (talking ? call.answered_at ?? call.started_at : call.started_at) : null };
  });
}

export const AGENT_SORTS = ['extension', 'name', 'state', 'handled'] as const;
export type AgentSort = (typeof AGENT_SORTS)[number];

const STATE_ORDER: Record<AgentState, number> = { talking: 0, ringing: 1, free: 2, offline: 3 };
const vi = new Intl.Collator('vi');
// One collator for every comparison: localeCompare with options builds a new one per call (a wall
// of 200 agents sorted a few times a second spent most of its sorting there).
const numeric = new Intl.Collator('en', { numeric: true });
const byExtension = (a: AgentRow, b: AgentRow) => numeric.compare(a.extension, b.extension);

/** The agents the filters keep (?department_id=, ?team_id=), in the chosen order (ties by extension). */
export function filterSortAgents(rows: AgentRow[], f: { department_id?: string; team_id?: string; sort?: string }): AgentRow[] {
  const keep = rows.filter(
    (r) => (!f.department_id || String(r.department_id) === f.department_id) && (!f.team_id || String(r.team_id) === f.team_id),
  );
  const sort = (AGENT_SORTS as readonly string[]).includes(f.sort ?? '') ? (f.sort as AgentSort) : 'extension';
  const cmp: Record<AgentSort, (a: AgentRow, b: AgentRow) => number> = {
    extension: () => 0,
    name: (a, b) => vi.compare(a.full_name ?? '\uffff', b.full_name ?? '\uffff'),
    state: (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state],
    handled: (a, b) => b.handled_today - a.handled_today,
  };
  return [...keep].sort((a, b) => cmp[sort](a, b) || byExtension(a, b));
}
