// The MP3 encoder of call recordings, on a thread of its own (ADR 0041, "Encoding off the RTP
// path"): lamejs takes tens of milliseconds per second of stereo audio on a quiet core and hundreds
// on a loaded one, and on the worker's event loop that time was a hole in every stream the worker
// relays (a recorded caller heard the voicemail prompt in pieces). Plain JavaScript, so the thread
// needs no TypeScript loader, whoever starts it (tsx, Jest, node).
//
// A recording given a spool file (`file`) has each encoded chunk written to it as it comes out of
// the encoder (issue 41): a worker killed mid-call leaves the MP3 up to the last second encoded
// on disk, and the next process hands it over (recording-spool.ts). Written here, off the worker's
// event loop, like the encoding itself. The MP3 is still kept in memory too (about 240 KB a minute):
// the call's end hands over that copy, which a failed disk write cannot have cut.
import { closeSync, openSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { Mp3Encoder } from '@breezystack/lamejs';

/** Recording id → its encoder, the MP3 it has produced so far and its spool file's descriptor. */
const streams = new Map();
const bytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

parentPort.on('message', (m) => {
  if (m.op === 'open') {
    let fd = null;
    try {
      if (m.file) fd = openSync(m.file, 'a');
    } catch (e) {
      // No spool (a full or missing disk): the recording is kept in memory only; the call goes on.
      console.error(`[media] recording spool ${m.file}: ${e.message}`);
    }
    streams.set(m.id, { encoder: new Mp3Encoder(2, m.rate, m.kbps), mp3: [], fd });
    return;
  }
  const s = streams.get(m.id);
  if (!s) return;
  if (m.op === 'pcm') out(s, s.encoder.encodeBuffer(m.left, m.right));
  else if (m.op === 'finish') {
    streams.delete(m.id);
    out(s, s.encoder.flush());
    if (s.fd !== null) closeSync(s.fd);
    parentPort.postMessage({ id: m.id, mp3: new Uint8Array(Buffer.concat(s.mp3)) });
  } else if (m.op === 'drop') {
    streams.delete(m.id);
    if (s.fd !== null) closeSync(s.fd);
  }
});

/** Encoded bytes: kept, and appended to the spool file while it takes them. */
function out(s, chunk) {
  if (!chunk.length) return;
  const b = bytes(chunk);
  s.mp3.push(b);
  if (s.fd === null) return;
  try {
    writeSync(s.fd, b);
  } catch (e) {
    console.error(`[media] recording spool write: ${e.message}`);
    closeSync(s.fd);
    s.fd = null;
  }
}
