#!/usr/bin/env bash
# Builds the local Postgres image faultline's database tests run against, once: no image
# registry is reachable on these machines, so the image is made from Debian's packages
# with debootstrap and `docker import`. Reused as is when `docker image inspect` finds it.
# Usage: scripts/postgres-image.sh [IMAGE]   (default faultline/postgres:15)
set -euo pipefail

IMAGE="${1:-${FAULTLINE_POSTGRES_IMAGE:-faultline/postgres:15}}"

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "postgres-image: $IMAGE exists, reused"
  exit 0
fi

command -v debootstrap >/dev/null || { echo "postgres-image: debootstrap is missing (apt-get install -y debootstrap)" >&2; exit 1; }

# The Debian mirror this machine is configured with: read at run time, never written here.
mirror() {
  local uri
  uri="$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)"
  if [ -z "$uri" ]; then
    uri="$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -n1 || true)"
  fi
  [ -n "$uri" ] || { echo "postgres-image: no Debian mirror found in /etc/apt/sources.list(.d)" >&2; exit 1; }
  echo "$uri"
}

MIRROR="$(mirror)"
ROOT="$(mktemp -d /tmp/faultline-pg-root.XXXXXX)"
trap 'rm -rf "$ROOT"' EXIT

echo "postgres-image: debootstrap bookworm + postgresql-15 into $ROOT"
debootstrap --variant=minbase --include=postgresql-15 bookworm "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1 || {
  tail -n 30 "$ROOT.log" >&2
  exit 1
}
rm -f "$ROOT.log"

# The entrypoint: a fresh cluster on first start, trust auth on loopback, then postgres
# as the postgres user with whatever flags the container was given (-c port=N ...).
cat >"$ROOT/usr/local/bin/faultline-postgres-entrypoint" <<'ENTRY'
#!/bin/sh
set -e
PGBIN=/usr/lib/postgresql/15/bin
export PGDATA="${PGDATA:-/var/lib/postgresql/data}"
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  su postgres -s /bin/sh -c "$PGBIN/initdb -D '$PGDATA' -U '${POSTGRES_USER:-postgres}' --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "host all all 0.0.0.0/0 trust" >>"$PGDATA/pg_hba.conf"
  echo "host all all ::/0 trust" >>"$PGDATA/pg_hba.conf"
  if [ -n "${POSTGRES_DB:-}" ] && [ "${POSTGRES_DB}" != "postgres" ]; then
    su postgres -s /bin/sh -c "$PGBIN/postgres --single -D '$PGDATA' postgres <<SQL >/dev/null
CREATE DATABASE \"${POSTGRES_DB}\";
SQL"
  fi
fi
if [ "$1" = "postgres" ]; then
  shift
  exec su postgres -s /bin/sh -c "exec $PGBIN/postgres -D '$PGDATA' $*"
fi
exec "$@"
ENTRY
chmod 755 "$ROOT/usr/local/bin/faultline-postgres-entrypoint"
# Docs, man pages and apt lists are not needed at run time; a smaller tar imports faster.
rm -rf "$ROOT"/usr/share/doc/* "$ROOT"/usr/share/man/* "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*

echo "postgres-image: docker import -> $IMAGE"
tar --numeric-owner -C "$ROOT" -c . | docker import \
  -c 'ENTRYPOINT ["/usr/local/bin/faultline-postgres-entrypoint"]' \
  -c 'CMD ["postgres"]' \
  -c 'ENV PGDATA=/var/lib/postgresql/data' \
  - "$IMAGE" >/dev/null
echo "postgres-image: built $IMAGE"
