#!/bin/sh
# Makes $PGDATA a streaming replica (hot standby) of the primary at $PRIMARY_HOST:$PRIMARY_PORT, as
# an operator makes one (ADR 0058): `pg_basebackup -R -X stream`, which copies the primary's files and
# writes standby.signal and primary_conninfo, so the server started on $PGDATA afterwards replays the
# primary's WAL as it comes. A $PGDATA that holds a cluster already is left as it is (a restart).
#
# Used by docker-compose.yml's postgres-replica service (run as the postgres user before the image's
# own entrypoint starts the server) and by the tests' replicas (api/test/pg-cluster.ts startReplica).
#   PGDATA            the replica's data folder (empty or missing the first time)
#   PRIMARY_HOST      the primary's host; PRIMARY_PORT (5432)
#   REPLICATION_USER  a role with REPLICATION that the primary's pg_hba.conf lets in for `replication`
#                     (allow-replication.sh); its password in PGPASSWORD, kept in primary_conninfo
#   APPLICATION_NAME  how the primary's pg_stat_replication names this replica (tongdai_replica)
#   PRIMARY_WAIT_S    how long to wait for the primary to accept connections (60)
set -eu
: "${PGDATA:?PGDATA: the replica's data folder}"
: "${PRIMARY_HOST:?PRIMARY_HOST: the primary's host}"
port="${PRIMARY_PORT:-5432}"
user="${REPLICATION_USER:-postgres}"
if [ -s "$PGDATA/PG_VERSION" ]; then
  echo "make-replica: $PGDATA holds a cluster already; started as it is"
  exit 0
fi
waited=0
until pg_isready -q -h "$PRIMARY_HOST" -p "$port" -U "$user"; do
  waited=$((waited + 1))
  if [ "$waited" -ge "${PRIMARY_WAIT_S:-60}" ]; then
    echo "make-replica: the primary $PRIMARY_HOST:$port did not accept connections within ${PRIMARY_WAIT_S:-60} s" >&2
    exit 1
  fi
  sleep 1
done
mkdir -p "$PGDATA"
chmod 700 "$PGDATA"
# --checkpoint=fast: the copy starts now, not after a spread checkpoint (minutes with the defaults).
pg_basebackup -d "host=$PRIMARY_HOST port=$port user=$user application_name=${APPLICATION_NAME:-tongdai_replica}" \
  -D "$PGDATA" -R -X stream --checkpoint=fast ${BASEBACKUP_EXTRA:-}
echo "make-replica: $PGDATA is a standby of $PRIMARY_HOST:$port"
