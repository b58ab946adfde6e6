import { CONTROL_PORT } from './ports.ts';

/** Stops or restarts one remote's static server (see global-setup). */
export async function remoteServer(id: string, action: 'stop' | 'start'): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${CONTROL_PORT}/remote/${id}/${action}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`control ${action} ${id}: ${res.status}`);
}

/** Restarts Kamailio in place (same ports, registrations lost): see global-setup. */
export async function restartSipServer(): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${CONTROL_PORT}/sip/restart`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`control sip restart: ${res.status} ${await res.text()}`);
}

/** Freezes Kamailio (a hung server: its sockets stay open, nothing answers) or thaws it: see global-setup. */
export async function freezeSipServer(frozen: boolean): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${CONTROL_PORT}/sip/${frozen ? 'freeze' : 'thaw'}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`control sip ${frozen ? 'freeze' : 'thaw'}: ${res.status} ${await res.text()}`);
}

/** The API's recordings folder full (a tmpfs filled up; root only), freed again, or put back as it was: see global-setup. */
export async function recordingsDisk(action: 'full' | 'space' | 'unmount'): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${CONTROL_PORT}/recordings-disk/${action}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`control recordings disk ${action}: ${res.status} ${await res.text()}`);
}
