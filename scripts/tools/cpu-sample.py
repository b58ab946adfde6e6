#!/usr/bin/env python3
# CPU per npm test step and per kind of process, for finding where a whole run spends its CPU (issue 31).
# Usage, as root beside a run whose steps join cgroups (CI=true bash .ci/run): python3 scripts/tools/cpu-sample.py 0 out.txt &
# then `touch /tmp/cpusample.stop` when the run ends. Samples /proc every second: processes that live under
# a second are missed, the last second of each is not counted. Used in the thirty-sixth session (its note).
"""Samples every process's CPU (utime+stime, /proc/PID/stat) each second until the file /tmp/cpusample.stop exists
or the watched pid exits; prints CPU-s per (cgroup step, category). Short-lived processes are undercounted."""
import os, sys, time, collections, re
HZ = os.sysconf('SC_CLK_TCK')
watch = int(sys.argv[1]) if len(sys.argv) > 1 else None
out = sys.argv[2] if len(sys.argv) > 2 else '/tmp/cpusample.txt'
last = {}  # (pid, starttime) -> (cpu, cat, group)
def cat(cmd):
    c = cmd.replace('\0', ' ')
    if 'chromium' in c or 'chrome' in c: return 'chromium'
    if c.startswith('postgres') or '/postgres' in c.split(' ')[0]: return 'postgres'
    for k in ('kamailio', 'rtpengine', 'sipp', 'redis-server', 'nginx', 'ffmpeg', 'sox'):
        if k in c.split(' ')[0]: return k
    if 'node' in c.split(' ')[0] or c.startswith('node'):
        if 'jest' in c: return 'node:jest'
        if 'playwright' in c: return 'node:playwright'
        if 'api/src/main.ts' in c: return 'node:api'
        if 'media' in c and ('src/main' in c or 'media/' in c): return 'node:media'
        if 'tsc' in c or 'typescript' in c: return 'node:tsc'
        if 'webpack' in c: return 'node:webpack'
        if 'bench' in c: return 'node:bench'
        if 'worker' in c: return 'node:worker'
        return 'node:other ' + ' '.join(c.split(' ')[1:3])[:60]
    return c.split(' ')[0][:40]
while True:
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            st = open(f'/proc/{p}/stat').read()
            f = st[st.rfind(')') + 2:].split()
            cpu = (int(f[11]) + int(f[12])) / HZ
            key = (int(p), f[19])
            if key in last:
                last[key] = (cpu, last[key][1], last[key][2]); continue
            cmd = open(f'/proc/{p}/cmdline').read()
            if not cmd: continue
            cg = next((l.split(':')[-1] for l in open(f'/proc/{p}/cgroup').read().splitlines() if 'cpuacct' in l), '?')
            last[key] = (cpu, cat(cmd), cg)
        except Exception:
            pass
    if os.path.exists('/tmp/cpusample.stop') or (watch and not os.path.exists(f'/proc/{watch}')): break
    time.sleep(1)
tot = collections.Counter()
for cpu, c, g in last.values(): tot[(g, c)] += cpu
with open(out, 'w') as fh:
    for (g, c), v in sorted(tot.items(), key=lambda x: -x[1]):
        if v >= 1: fh.write(f'{v:8.1f}  {g[-50:]:50}  {c}\n')
print('written', out)
