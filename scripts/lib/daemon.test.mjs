import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupMembers, spawnDaemon } from './daemon.mjs';

const listens = (port) => new Promise((resolve) => {
  const s = createServer();
  s.once('error', () => resolve(false));
  s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
});

/**
 * Whether any process has a socket listening on 127.0.0.1:port (/proc/net/tcp, state 0A). Not a bind:
 * the worker's port is an ephemeral one, and under load another process's outgoing connection may be
 * given it the moment it is free (ci6 of the thirty-fifth session) — free for a listener all the same.
 */
const listening = (port) => {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)
    .some((line) => { const f = line.trim().split(/\s+/); return f[1] === `0100007F:${hex}` && f[3] === '0A'; });
};

test("a daemon's exit resolves once its workers are gone too, their port free again (a start right after a crash binds)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tongdai-daemon-'));
  try {
    // A main process that forks a worker holding a listening socket, as Kamailio's do.
    const worker = "require('net').createServer().listen(0,'127.0.0.1',function(){console.log('port',this.address().port)})";
    const d = spawnDaemon(process.execPath, ['-e', `require('child_process').spawn(process.execPath,['-e',${JSON.stringify(worker)}],{stdio:'inherit'}); setInterval(()=>{},1000)`], { cwd: dir, log: join(dir, 'log') });
    let port = 0;
    for (let i = 0; i < 400 && !port; i++) {
      await new Promise((r) => setTimeout(r, 50));
      port = Number(/port (\d+)/.exec(readFileSync(join(dir, 'log'), 'utf8'))?.[1] ?? 0);
    }
    assert.ok(port, 'the worker listens');
    assert.equal(groupMembers(d.proc.pid).length, 2);
    assert.equal(await listens(port), false);
    assert.equal(listening(port), true);
    // Only the main process dies: its orphaned worker is killed with it, and the port is free at once.
    process.kill(d.proc.pid, 'SIGKILL');
    assert.equal(await d.exited, 'SIGKILL');
    assert.deepEqual(groupMembers(d.proc.pid), []);
    assert.equal(listening(port), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
