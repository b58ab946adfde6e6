// The MP3 encoder of call recordings, on a thread of its own (ADR 0041, "Encoding off the RTP
// path"): lamejs takes tens of milliseconds per second of stereo audio on a quiet core and hundreds
// on a loaded one, and on the worker's event loop that time was a hole in every stream the worker
// relays (a recorded caller heard the voicemail prompt in pieces). Plain JavaScript, so the thread
// needs no TypeScript loader, whoever starts it (tsx, Jest, node).
//
// What a worker killed mid-call leaves on disk is not written here: the recorder appends the audio
// itself to the spool as it hands it over (recorder.ts, issue 41), so a thread behind on a loaded
// machine loses nothing of it.
import { parentPort } from 'node:worker_threads';
import { Mp3Encoder } from '@breezystack/lamejs';

/** Recording id → its encoder and the MP3 it has produced so far. */
const streams = new Map();
const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

parentPort.on('message', (m) => {
  if (m.op === 'open') {
    streams.set(m.id, { encoder: new Mp3Encoder(2, m.rate, m.kbps), mp3: [] });
    return;
  }
  const s = streams.get(m.id);
  if (!s) return;
  if (m.op === 'pcm') out(s, s.encoder.encodeBuffer(m.left, m.right));
  else if (m.op === 'finish') {
    streams.delete(m.id);
    out(s, s.encoder.flush());
    parentPort.postMessage({ id: m.id, mp3: new Uint8Array(Buffer.concat(s.mp3)) });
  }
});

function out(s, chunk) {
  if (chunk.length) s.mp3.push(bytes(chunk));
}
