#!/bin/sh
# Make sure Debian's PostgreSQL 15 server binaries are at /usr/lib/postgresql/15/bin for
# the cluster test (tests/cluster/). `make test` runs this first.
# - already installed: nothing to do;
# - missing and we are root: apt-get install it (the package's own cluster is not used:
#   the test runs initdb into a temporary directory);
# - missing and not root: say how to install it and exit non-zero.
set -eu

PG_BIN=/usr/lib/postgresql/15/bin

if [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-postgresql: $PG_BIN is missing; installing Debian's postgresql-15 with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y postgresql-15
    if [ -x "$PG_BIN/initdb" ]; then
        exit 0
    fi
    echo "ensure-postgresql: apt-get finished but $PG_BIN/initdb is still missing" >&2
    exit 1
fi

cat >&2 <<MSG
ensure-postgresql: $PG_BIN/initdb is missing, and the cluster test (tests/cluster/) needs it.
Install Debian's PostgreSQL 15 as root:
    sudo apt-get update && sudo apt-get install -y postgresql-15
MSG
exit 1
