#!/usr/bin/env bash
# Installs what a few tests need beyond `npm ci`, on Debian or Ubuntu as root (as CI does):
# Python's openai package (pinned in ci-python.sh) for the worked Python agent, Debian's
# Chromium for the HTML report tests, and Docker with the local Postgres image for the database
# tests. `npm test` does not call this: without a component, its tests skip with one line that
# says what to install (under CI they fail). Run it once: bash scripts/prerequisites.sh
set -uo pipefail
here="$(dirname "$0")"
status=0
# pip needs no apt: beside Chromium and Docker, which take turns on apt's lock.
bash "$here/ci-python.sh" &
python_pid=$!
# shellcheck source=/dev/null
source "$here/ci-chromium.sh" || status=1
# shellcheck source=/dev/null
source "$here/ci-postgres.sh" || status=1
wait "$python_pid" || status=1
if [ "$status" -eq 0 ]; then
  echo "prerequisites: Python's openai, Chromium, Docker and the Postgres image are ready (dockerd keeps running)"
else
  echo "prerequisites: some did not install (see above); their tests skip outside CI" >&2
fi
exit "$status"
