/**
 * The recordings module's face (issue 16, ADR 0041): call recordings made by the media worker,
 * their files (a local folder or an S3-compatible bucket), who may hear and download them, and
 * how long they are kept.
 * - the composition root: the store from the environment, the retention sweep;
 * - the call plane (sip/call-routing.ts): the worker's upload on the internal listener;
 * - the reports: a page's recordings for its rows, and the tenant routes beside the call history.
 */
export { LocalRecordingStore, S3RecordingStore, recordingStoreFromEnv, type RecordingStore } from './recording-store';
export { recordingRefs, recordingStorage, sweepRecordings } from './recordings';
export { onRecordingStorage, recordingAccess, recordingRoutes, registerRecordingInternalRoutes, type RecordingAccess } from './recordings.routes';
export { scheduleRecordingSweep } from './recording-sweeper';
export { signRecordingTicket } from './recording-ticket';
