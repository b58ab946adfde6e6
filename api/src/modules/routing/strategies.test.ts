import type { QueueStrategy, RingStrategy } from '@tongdai/contracts';
import { planCall } from './plan';
import { dest, extension, inbound, inboundCall, liveState, pbxConfig, queue, ringGroup, seeded, type LiveInput } from '@tongdai/testkit/routing-factory';
import type { QueueStep, RingStep } from './types';

const DID = '02873000001';
const exts = ['101', '102', '103', '104'];
const on: LiveInput = { registered: exts };

function groupPlan(strategy: RingStrategy, live: LiveInput = on) {
  const config = pbxConfig({ extensions: exts.map((e) => extension(e)), inbounds: [inbound(1, DID, dest('group', 1))], ringGroups: [ringGroup(1, exts, { strategy, ring_time: 10 })] });
  return planCall(config, inboundCall('0912345678', DID), liveState(live)).steps.filter((s): s is RingStep => s.kind === 'ring');
}
const shape = (steps: RingStep[]) => steps.map((s) => `${s.mode}:${s.targets.map((t) => t.extension).join(',')}/${s.timeout}`);

describe('ring group strategies', () => {
  it('ringall rings every member at once for ring_time', () => {
    expect(shape(groupPlan('ringall'))).toEqual(['parallel:101,102,103,104/10']);
  });

  it('hunt rings them one after the other in order, ring_time each', () => {
    const steps = groupPlan('hunt');
    expect(shape(steps)).toEqual(['serial:101,102,103,104/40']);
    expect(steps[0].targets.every((t) => t.timeout === 10)).toBe(true);
  });

  it('memoryhunt rings the 1st, then 1st+2nd, then 1st+2nd+3rd …', () => {
    expect(shape(groupPlan('memoryhunt'))).toEqual(['parallel:101/10', 'parallel:101,102/10', 'parallel:101,102,103/10', 'parallel:101,102,103,104/10']);
  });

  it('memoryhunt counts only the members who can ring', () => {
    expect(shape(groupPlan('memoryhunt', { registered: exts, busy: ['102'] }))).toEqual(['parallel:101/10', 'parallel:101,103/10', 'parallel:101,103,104/10']);
  });

  it('random rings every member once, one at a time, in a random order', () => {
    const a = groupPlan('random', { ...on, random: seeded(1) });
    const b = groupPlan('random', { ...on, random: seeded(2) });
    expect(a[0].mode).toBe('serial');
    expect([...a[0].targets.map((t) => t.extension)].sort()).toEqual(exts);
    expect(a[0].targets.map((t) => t.extension)).not.toEqual(b[0].targets.map((t) => t.extension));
  });
});

function queueStep(strategy: QueueStrategy, live: LiveInput = on): QueueStep {
  const config = pbxConfig({ extensions: exts.map((e) => extension(e)), inbounds: [inbound(1, DID, dest('queue', 5))], queues: [queue(5, exts, { strategy })] });
  return planCall(config, inboundCall('0912345678', DID), liveState(live)).steps[0] as QueueStep;
}
const order = (q: QueueStep) => q.agents.map((a) => a.extension);
const t = (iso: string) => new Date(iso);

describe('queue strategies', () => {
  it('ringall rings every agent at once', () => {
    const q = queueStep('ringall');
    expect([q.ring, order(q)]).toEqual(['parallel', exts]);
  });

  it('linear rings in the listed order, from the first each time', () => {
    const q = queueStep('linear', { ...on, memory: { 'queue:5': '102' } });
    expect([q.ring, order(q)]).toEqual(['serial', exts]);
  });

  it('leastrecent starts with the agent idle the longest (never called first)', () => {
    const stats = {
      '101': { calls: 5, lastCallAt: t('2025-03-05T03:00:00Z') },
      '102': { calls: 9, lastCallAt: t('2025-03-05T01:00:00Z') },
      '103': { calls: 1, lastCallAt: null },
      '104': { calls: 2, lastCallAt: t('2025-03-05T02:00:00Z') },
    };
    expect(order(queueStep('leastrecent', { ...on, stats: { 5: stats } }))).toEqual(['103', '102', '104', '101']);
    // Another queue's figures do not count in this one.
    expect(order(queueStep('leastrecent', { ...on, stats: { 6: stats } }))).toEqual(exts);
  });

  it('fewestcalls starts with the agent who took the fewest calls (ties keep the list order)', () => {
    const stats = { '101': { calls: 5, lastCallAt: null }, '102': { calls: 2, lastCallAt: null }, '104': { calls: 2, lastCallAt: null } };
    expect(order(queueStep('fewestcalls', { ...on, stats: { 5: stats } }))).toEqual(['103', '102', '104', '101']);
  });

  it('rrmemory starts after the agent who answered last, wrapping around', () => {
    expect(order(queueStep('rrmemory'))).toEqual(exts);
    expect(order(queueStep('rrmemory', { ...on, memory: { 'queue:5': '102' } }))).toEqual(['103', '104', '101', '102']);
    expect(order(queueStep('rrmemory', { ...on, memory: { 'queue:5': '104' } }))).toEqual(exts);
    // An agent since taken out of the queue: from the top.
    expect(order(queueStep('rrmemory', { ...on, memory: { 'queue:5': '109' } }))).toEqual(exts);
  });

  it('random shuffles every agent (seeded in tests)', () => {
    const q = queueStep('random', { ...on, random: seeded(7) });
    expect([...order(q)].sort()).toEqual(exts);
    expect(order(q)).toEqual(order(queueStep('random', { ...on, random: seeded(7) })));
  });

  it('reports each agent as available, busy or offline in strategy order', () => {
    const q = queueStep('linear', { registered: ['101', '102'], busy: ['102'] });
    expect(q.agents.map((a) => a.state)).toEqual(['available', 'busy', 'offline', 'offline']);
  });
});
