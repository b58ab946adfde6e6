// The MP3 encoder of call recordings, on a thread of its own (ADR 0041, "Encoding off the RTP
// path"): lamejs takes tens of milliseconds per second of stereo audio on a quiet core and hundreds
// on a loaded one, and on the worker's event loop that time was a hole in every stream the worker
// relays (a recorded caller heard the voicemail prompt in pieces). Plain JavaScript, so the thread
// needs no TypeScript loader, whoever starts it (tsx, Jest, node).
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
  if (m.op === 'pcm') {
    const out = s.encoder.encodeBuffer(m.left, m.right);
    if (out.length) s.mp3.push(bytes(out));
  } else if (m.op === 'finish') {
    streams.delete(m.id);
    const tail = s.encoder.flush();
    if (tail.length) s.mp3.push(bytes(tail));
    parentPort.postMessage({ id: m.id, mp3: new Uint8Array(Buffer.concat(s.mp3)) });
  } else if (m.op === 'drop') {
    streams.delete(m.id);
  }
});
