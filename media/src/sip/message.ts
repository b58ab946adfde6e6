/** SIP messages (RFC 3261) as the worker needs them: parse, read headers, build, serialize. */

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: [string, string][];
  body: string;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: [string, string][];
  body: string;
}

export type SipMessage = SipRequest | SipResponse;

const COMPACT: Record<string, string> = { v: 'via', f: 'from', t: 'to', i: 'call-id', m: 'contact', l: 'content-length', c: 'content-type', k: 'supported', s: 'subject' };
const canonical = (name: string) => {
  const n = name.trim().toLowerCase();
  return COMPACT[n] ?? n;
};

export function parseMessage(raw: string): SipMessage | null {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  let body = split < 0 ? '' : raw.slice(split + 4);
  const lines = head.split('\r\n');
  const start = lines.shift() ?? '';
  const headers: [string, string][] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && headers.length) headers[headers.length - 1][1] += ` ${line.trim()}`;
    else {
      const i = line.indexOf(':');
      if (i > 0) headers.push([canonical(line.slice(0, i)), line.slice(i + 1).trim()]);
    }
  }
  const len = headers.find(([n]) => n === 'content-length');
  if (len) body = Buffer.from(body).subarray(0, Number(len[1]) || 0).toString();
  const res = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(start);
  if (res) return { kind: 'response', status: Number(res[1]), reason: res[2], headers, body };
  const req = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(start);
  if (req) return { kind: 'request', method: req[1], uri: req[2], headers, body };
  return null;
}

export function serialize(m: SipMessage): string {
  const start = m.kind === 'request' ? `${m.method} ${m.uri} SIP/2.0` : `SIP/2.0 ${m.status} ${m.reason}`;
  const headers = m.headers.filter(([n]) => n !== 'content-length').map(([n, v]) => `${displayName(n)}: ${v}`);
  return [start, ...headers, `Content-Length: ${Buffer.byteLength(m.body)}`, '', m.body].join('\r\n');
}

const SPECIAL: Record<string, string> = { 'call-id': 'Call-ID', cseq: 'CSeq', 'www-authenticate': 'WWW-Authenticate' };
const displayName = (n: string) => SPECIAL[n] ?? n.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());

export function header(m: SipMessage, name: string): string | undefined {
  const n = canonical(name);
  return m.headers.find(([h]) => h === n)?.[1];
}

/** Every value of a header, comma-separated lists split (outside <> and quotes). */
export function headerList(m: SipMessage, name: string): string[] {
  const n = canonical(name);
  return m.headers.filter(([h]) => h === n).flatMap(([, v]) => splitList(v));
}

export function splitList(v: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = '';
  for (const ch of v) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === '<') depth++;
    if (!quoted && ch === '>') depth--;
    if (ch === ',' && !quoted && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The URI inside a name-addr (`"A" <sip:x@y>;tag=1` → `sip:x@y`) or a bare addr-spec. */
export function uriOf(nameAddr: string): string {
  const m = /<([^>]*)>/.exec(nameAddr);
  return (m ? m[1] : nameAddr.split(';')[0]).trim();
}

/** A parameter of a header value outside its <URI> (tag, branch, received, rport). */
export function param(value: string, name: string): string | undefined {
  const outside = value.includes('>') ? value.slice(value.lastIndexOf('>') + 1) : value;
  const m = new RegExp(`;\\s*${name}(?:=([^;,\\s]*))?`, 'i').exec(outside);
  return m ? (m[1] ?? '') : undefined;
}

/** host and port of a SIP URI (default port 5060). */
export function hostPort(uri: string): { host: string; port: number } {
  const m = /^sips?:(?:[^@]*@)?(\[[^\]]+\]|[^:;>?]+)(?::(\d+))?/i.exec(uri.trim());
  if (!m) throw new Error(`not a SIP URI: ${uri}`);
  return { host: m[1], port: m[2] ? Number(m[2]) : 5060 };
}

/** The user part of a SIP URI. */
export function userOf(uri: string): string {
  return /^sips?:([^@;>]*)@/i.exec(uri.trim())?.[1] ?? '';
}

export function cseq(m: SipMessage): { seq: number; method: string } {
  const [seq, method] = (header(m, 'cseq') ?? '0 X').split(/\s+/);
  return { seq: Number(seq), method };
}

/** A dialog-creating request: no To-tag yet. */
export const isInitial = (req: SipRequest) => param(header(req, 'to') ?? '', 'tag') === undefined;

export const randomToken = (n = 10) => Math.random().toString(36).slice(2, 2 + n).padEnd(n, '0');
