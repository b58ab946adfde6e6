import { recordsDirection, type PbxConfig, type RecordingMode } from '@tongdai/contracts';
import { routeAsksCsat } from './csat';
import type { CallDirection, PlanStep, RoutingPlan } from './types';

/**
 * Which calls are recorded (issue 16, ADR 0041). The most specific setting wins: a queue's own
 * mode for the calls it takes, an extension's for the calls it makes or takes, else the tenant's.
 * A call is recorded when any party it may reach (or the extension placing it) records that direction.
 */
export function tenantRecordingMode(config: PbxConfig): RecordingMode {
  return config.recordingMode ?? 'none';
}

export function extensionRecordingMode(config: PbxConfig, extension: string): RecordingMode {
  return config.extensions.find((e) => e.extension === extension)?.recording_mode ?? tenantRecordingMode(config);
}

export function queueRecordingMode(config: PbxConfig, queueId: number): RecordingMode {
  return config.queues.find((q) => q.id === queueId)?.recording_mode ?? tenantRecordingMode(config);
}

/** A plan that rings extensions or a carrier itself (no media worker in its path unless it records). */
function recordsDirectPlan(config: PbxConfig, plan: RoutingPlan, fromExtension: string | undefined): boolean {
  const modes: RecordingMode[] = [];
  if (plan.direction !== 'inbound' && fromExtension) modes.push(extensionRecordingMode(config, fromExtension));
  for (const s of plan.steps) if (s.kind === 'ring') for (const t of s.targets) modes.push(extensionRecordingMode(config, t.extension));
  if (!modes.length) modes.push(tenantRecordingMode(config));
  return modes.some((m) => recordsDirection(m, plan.direction));
}

/**
 * The plan of a new call with recording: a call whose first step rings (or goes out through a
 * carrier) and must be recorded starts with a bridge step, so the media worker stands between
 * the parties (browsers, desk phones and carriers alike) and records them; calls whose first step
 * is the worker's already (IVR, queue, announcement) are recorded by it as its session says.
 * The same one bridge step puts the worker in a call a supervisor may listen to (ADR 0042) and in a
 * call whose inbound route asks its callers to rate it (`csat`, issue 34, ADR 0056).
 */
export function withRecording(config: PbxConfig, plan: RoutingPlan, fromExtension: string | undefined): RoutingPlan {
  const first = plan.steps[0];
  if (!first || (first.kind !== 'ring' && first.kind !== 'forward')) return plan;
  const records = recordsDirectPlan(config, plan, fromExtension);
  const csat = routeAsksCsat(config, plan);
  // A tenant whose supervisors listen to every call (ADR 0042), a route that asks for CSAT: the worker bridges it unrecorded.
  if (!records && !config.monitorCalls && !csat) return plan;
  const bridge: PlanStep = {
    kind: 'bridge',
    ...(records ? {} : { record: false as const }),
    ...(csat ? { csat: true as const } : {}),
    ...(first.source ? { source: first.source } : {}),
  };
  return { ...plan, steps: [bridge, ...plan.steps] };
}

/**
 * Whether the worker's session at the start of a call records once it bridges the caller: a
 * queue by its mode, an IVR or announcement by the tenant's (who will answer is not known yet).
 */
export function recordsAtWorker(config: PbxConfig, step: PlanStep, direction: CallDirection): boolean {
  if (step.kind === 'bridge') return step.record !== false;
  if (step.kind === 'queue') return recordsDirection(queueRecordingMode(config, step.queueId), direction);
  if (step.kind === 'ivr' || step.kind === 'play') return recordsDirection(tenantRecordingMode(config), direction);
  return false;
}

/**
 * Whether the leg a worker places after an IVR or announcement is recorded (the worker took the
 * call unrecorded: the tenant does not record): the extension it rings records that direction, or
 * the queue it reaches does — the most specific setting wins there too. A queue's own agents are
 * not asked: the queue's mode decided at its session.
 */
export function recordsContinuation(config: PbxConfig, next: RoutingPlan, fromExtension: string | undefined): boolean {
  const first = next.steps[0];
  if (!first) return false;
  if (first.kind === 'queue') return recordsDirection(queueRecordingMode(config, first.queueId), next.direction);
  if (first.kind === 'ring' || first.kind === 'forward') return recordsDirectPlan(config, next, fromExtension);
  return false;
}
