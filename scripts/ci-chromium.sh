#!/usr/bin/env bash
# CI's browser step (sourced by .ci/run, so its export reaches the test run): installs
# Debian's chromium if it is missing and sets FAULTLINE_REQUIRE_CHROMIUM=1, so the test that
# opens compare.html in headless Chromium fails, not skips, if the browser is not there.
# Usage: source scripts/ci-chromium.sh

faultline_ci_chromium() {
  export FAULTLINE_REQUIRE_CHROMIUM=1
  if [ -x "${FAULTLINE_CHROMIUM:-/usr/bin/chromium}" ]; then
    return 0
  fi
  local started=$SECONDS
  echo "ci-chromium: installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq chromium; } >/tmp/faultline-apt-chromium.log 2>&1 || {
    echo "ci-chromium: apt-get install failed; its log:" >&2
    tail -n 30 /tmp/faultline-apt-chromium.log >&2
    return 1
  }
  echo "ci-chromium: ready in $((SECONDS - started)) s"
}

faultline_ci_chromium
