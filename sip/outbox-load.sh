#!/bin/sh
# Kamailio's outbox on disk (ADR 0046), gathered when Kamailio starts (event_route[htable:mod-init]).
# While it runs, Kamailio writes each event to DIR/<boot>.<seq> (its JSON, one line) and, once an API
# has acknowledged it, overwrites that file with "-" (for an event of an earlier run, loaded from
# DIR/old, it creates DIR/<id> holding "-"). This gathers every event not yet acknowledged and at
# most a day old (htable's autoexpire), oldest first, deduplicated, into DIR/old/<n> (100 a file,
# n from 0) with their number in DIR/old/count, then removes what it gathered. A crash in between
# leaves either the previous files or both copies (read once, by id).
set -eu
dir=$1
cd "$dir"
mkdir -p old
rm -rf old.next
mkdir old.next
now=$(date +%s)
# Each top-level file is one record (an event, or "-"), keyed by its name; each line of old/<n> is
# an event of an earlier run, keyed by its id. Kept: "<boot> <seq> <event>" for what is live.
{ find . -maxdepth 1 -type f -name '[0-9]*.[0-9]*'; ls old | grep -E '^[0-9]+$' | sed 's|^|./old/|'; } > old.next/inputs
# Each file's records as "<file>\t<record>" (xargs may run several awk; the state is in the next one).
xargs -r awk '{ print FILENAME "\t" $0 }' < old.next/inputs | awk -v now="$now" '
  {
    t = index($0, "\t"); f = substr($0, 1, t - 1); r = substr($0, t + 1)
    if (f ~ /^\.\/old\//) {
      if (match(r, /"id": ?"[0-9]+\.[0-9]+"/)) { k = substr(r, RSTART, RLENGTH); sub(/^"id": ?"/, "", k); sub(/"$/, "", k); ev[k] = r }
      next
    }
    k = f; sub(/^\.\//, "", k)
    if (r == "-") acked[k] = 1; else ev[k] = r
  }
  END {
    for (k in ev) {
      if (k in acked) continue
      at = ""
      if (match(ev[k], /"at": ?"[0-9]+/)) { at = substr(ev[k], RSTART, RLENGTH); sub(/^"at": ?"/, "", at) }
      if (at != "" && at + 86400 < now) continue
      split(k, p, ".")
      print p[1] " " p[2] " " ev[k]
    }
  }' | sort -k1,1n -k2,2n | awk '
    { f = "old.next/" int((NR - 1) / 100); if (f != last) { if (last != "") close(last); last = f }; sub(/^[0-9]+ [0-9]+ /, ""); print > f }
    END { printf "%d", (NR + 99) / 100 > "old.next/count" }'
rm -f old.next/inputs
rm -rf old.prev
mv old old.prev
mv old.next old
rm -rf old.prev
# The files gathered (every top-level one: Kamailio writes none before this returns).
find . -maxdepth 1 -type f -name '[0-9]*.[0-9]*' -delete
