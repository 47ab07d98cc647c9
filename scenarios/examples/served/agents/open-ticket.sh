#!/bin/sh
# The smallest command agent: opens one ticket with curl, one Idempotency-Key for every try,
# honours Retry-After, and reports its outcome and claim in FAULTLINE_RESULT.
set -u
body='{"requestId":"req-7","subject":"Printer on fire"}'
headers=$(mktemp)
trap 'rm -f "$headers"' EXIT
for try in 1 2 3; do
  status=$(curl -s -o /dev/null -D "$headers" -w '%{http_code}' -m 2 -X POST "$FAULTLINE_HELPDESK_URL/tickets" \
    -H 'content-type: application/json' -H 'idempotency-key: ticket-req-7' -d "$body")
  case "$status" in
    2*) echo '{"outcome":"completed","claims":[{"subject":"helpdesk:req-7","status":"succeeded"}]}' > "$FAULTLINE_RESULT"; exit 0 ;;
    429|5*) wait=$(tr -d '\r' < "$headers" | awk -F': ' 'tolower($1) == "retry-after" { print $2 }'); sleep "${wait:-0.1}" ;;
    000) sleep 0.1 ;;
    *) break ;;
  esac
done
echo '{"outcome":"failed","claims":[{"subject":"helpdesk:req-7","status":"unknown"}]}' > "$FAULTLINE_RESULT"
