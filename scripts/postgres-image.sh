#!/usr/bin/env bash
# Builds the local Postgres image faultline's database tests run against, once: no image
# registry is reachable on these machines, so the image is assembled from Debian's own
# postgresql-15 as apt installs it on this machine (it is usually there already): its
# programs and their shared libraries (as ldd finds them), its share files, the time zones,
# the C.UTF-8 locale, a shell for the entrypoint, then `docker import`. A few seconds, where
# debootstrapping a whole Debian into a folder took minutes. Reused as is when
# `docker image inspect` finds it.
# Usage: scripts/postgres-image.sh [IMAGE]   (default faultline/postgres:15)
set -euo pipefail

IMAGE="${1:-${FAULTLINE_POSTGRES_IMAGE:-faultline/postgres:15}}"
PG_MAJOR=15
PGLIB="/usr/lib/postgresql/$PG_MAJOR"

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  echo "postgres-image: $IMAGE exists, reused"
  exit 0
fi

if [ ! -x "$PGLIB/bin/postgres" ]; then
  echo "postgres-image: installing postgresql-$PG_MAJOR with apt"
  # Only the programs are wanted: with Debian's policy-rc.d (as on these machines) nothing starts.
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -qq --no-install-recommends "postgresql-$PG_MAJOR" || { apt-get update -qq && apt-get install -y -qq --no-install-recommends "postgresql-$PG_MAJOR"; }; } >/tmp/faultline-apt-postgres.log 2>&1 || {
    echo "postgres-image: apt-get install postgresql-$PG_MAJOR failed; its log:" >&2
    tail -n 30 /tmp/faultline-apt-postgres.log >&2
    exit 1
  }
fi

ROOT="$(mktemp -d /tmp/faultline-pg-root.XXXXXX)"
trap 'rm -rf "$ROOT"' EXIT

# Debian's merged /usr, as on the host, so the paths ldd prints (/lib/..., /lib64/...) land where
# the programs look for them.
mkdir -p "$ROOT"/usr/{bin,lib,lib64,sbin,local/bin} "$ROOT"/{etc,tmp,var/run/postgresql,var/lib/postgresql} "$ROOT/usr/share/postgresql"
for d in bin lib lib64 sbin; do ln -s "usr/$d" "$ROOT/$d"; done
chmod 1777 "$ROOT/tmp"

# Copies each file as a regular file (symlinks followed) at the same path under $ROOT; each
# folder as it is, by tar (coreutils 9.1's `cp -a --parents` fails on absolute paths).
copy() { local f; for f in "$@"; do (cd / && cp -L --parents "${f#/}" "$ROOT"); done; }
copy_dirs() { tar -C / -c "${@#/}" | tar -C "$ROOT" -x; }

# The server, initdb, pg_isready (the readiness probe runs it in the container) and the rest of
# the version's programs and modules. JIT is left out: its provider drags in LLVM (over 100 MB)
# and Postgres runs without it when it is absent (`jit = off` below says so).
copy_dirs "$PGLIB"
rm -rf "$ROOT$PGLIB/lib/llvmjit"* "$ROOT$PGLIB/lib/bitcode"
copy_dirs "/usr/share/postgresql/$PG_MAJOR" /usr/share/zoneinfo /usr/lib/locale/C.utf8
# The entrypoint's tools: a shell, mkdir and chown, and setpriv to drop to the postgres user.
copy /bin/sh /bin/mkdir /bin/chown /usr/bin/setpriv

# Every shared library those programs load, and the libraries those load (ldd lists the whole
# closure), plus the dynamic loader itself.
libs="$(
  find "$ROOT" -type f \( -perm -u+x -o -name '*.so*' \) -print0 | while IFS= read -r -d '' f; do
    ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }'
  done | sort -u
)"
# shellcheck disable=SC2086
copy $libs

for p in postgres initdb pg_ctl pg_isready psql; do ln -s "$PGLIB/bin/$p" "$ROOT/usr/bin/$p"; done
cat >"$ROOT/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
postgres:x:999:999:PostgreSQL administrator:/var/lib/postgresql:/bin/sh
EOF
cat >"$ROOT/etc/group" <<'EOF'
root:x:0:
postgres:x:999:
EOF
printf 'passwd: files\ngroup: files\nhosts: files\n' >"$ROOT/etc/nsswitch.conf"

# The entrypoint: a fresh cluster on first start, trust auth on loopback, then postgres
# as the postgres user with whatever flags the container was given (-c port=N ...).
cat >"$ROOT/usr/local/bin/faultline-postgres-entrypoint" <<'ENTRY'
#!/bin/sh
set -e
PGBIN=/usr/lib/postgresql/15/bin
export PGDATA="${PGDATA:-/var/lib/postgresql/data}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  as_postgres "$PGBIN/initdb" -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
  echo "jit = off" >>"$PGDATA/postgresql.conf"
  echo "host all all 0.0.0.0/0 trust" >>"$PGDATA/pg_hba.conf"
  echo "host all all ::/0 trust" >>"$PGDATA/pg_hba.conf"
  if [ -n "${POSTGRES_DB:-}" ] && [ "${POSTGRES_DB}" != "postgres" ]; then
    echo "CREATE DATABASE \"${POSTGRES_DB}\";" | as_postgres "$PGBIN/postgres" --single -D "$PGDATA" postgres >/dev/null
  fi
fi
if [ "$1" = "postgres" ]; then
  shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/postgres" -D "$PGDATA" "$@"
fi
exec "$@"
ENTRY
chmod 755 "$ROOT/usr/local/bin/faultline-postgres-entrypoint"

echo "postgres-image: docker import -> $IMAGE ($(du -sh "$ROOT" | cut -f1))"
tar --numeric-owner -C "$ROOT" -c . | docker import \
  -c 'ENTRYPOINT ["/usr/local/bin/faultline-postgres-entrypoint"]' \
  -c 'CMD ["postgres"]' \
  -c 'ENV PGDATA=/var/lib/postgresql/data' \
  -c "ENV PATH=$PGLIB/bin:/usr/local/bin:/usr/bin:/bin" \
  - "$IMAGE" >/dev/null
echo "postgres-image: built $IMAGE"
