#!/usr/bin/env bash
# CI's database step (sourced by .ci/run, so its exports reach the test run): installs
# Docker from Debian's packages if missing, starts dockerd without a bridge or iptables
# (containers use host networking: traffic stays on loopback), builds the local Postgres image
# once (from Debian's postgresql-15: scripts/postgres-image.sh), and sets
# FAULTLINE_REQUIRE_DOCKER=1 so the database tests fail, not skip, if any of this did not work.
# Usage: source scripts/ci-postgres.sh   (or run it: it then only prepares Docker and the image)

faultline_ci_postgres() {
  local started=$SECONDS
  export FAULTLINE_REQUIRE_DOCKER=1
  export TESTCONTAINERS_RYUK_DISABLED=true
  # This machine is itself a container: testcontainers would look for the (absent) bridge's gateway.
  export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1

  if ! command -v dockerd >/dev/null; then
    echo "ci-postgres: installing docker.io"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq docker.io; } >/tmp/faultline-apt.log 2>&1 || {
      echo "ci-postgres: apt-get install failed; its log:" >&2
      tail -n 30 /tmp/faultline-apt.log >&2
      return 1
    }
  fi

  if ! docker info >/dev/null 2>&1; then
    echo "ci-postgres: starting dockerd"
    mkdir -p /var/log
    nohup dockerd --bridge=none --iptables=false >/var/log/faultline-dockerd.log 2>&1 &
    local i
    for i in $(seq 1 60); do
      docker info >/dev/null 2>&1 && break
      sleep 1
    done
    docker info >/dev/null 2>&1 || {
      echo "ci-postgres: dockerd did not come up; its log:" >&2
      tail -n 30 /var/log/faultline-dockerd.log >&2
      return 1
    }
  fi

  bash "$(dirname "${BASH_SOURCE[0]}")/postgres-image.sh" || return 1
  echo "ci-postgres: ready in $((SECONDS - started)) s"
}

faultline_ci_postgres
