#!/bin/sh
# The primary lets its replicas in (ADR 0058): docker-compose.yml mounts this into the postgres
# service's /docker-entrypoint-initdb.d, which the image runs once, when it creates the cluster. The
# image's pg_hba.conf allows replication connections from loopback only; this adds the compose
# network, with a password (scram-sha-256), for the POSTGRES_USER the replica connects as.
# A cluster made before this file was mounted needs the same line added by hand, then a reload:
#   docker compose exec postgres sh -c 'echo "host replication tongdai all scram-sha-256" >> "$PGDATA/pg_hba.conf"'
#   docker compose exec postgres psql -U tongdai -c 'select pg_reload_conf()'
set -eu
echo "host replication ${POSTGRES_USER:-postgres} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
