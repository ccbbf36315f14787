#!/usr/bin/env bash
# Two FleetServer instances on one database, against a fixture upstream that counts requests.
# Run from the repository root through the private PostgreSQL server:
#
#   Scripts/with-postgres.sh Examples/FleetServer/run-two.sh
#
# Prints what each instance answers and how many requests reached the upstream.
set -euo pipefail
cd "$(dirname "$0")"
: "${CACHEGEN_POSTGRES_URL:?run through Scripts/with-postgres.sh}"

swift build -q
BIN="$(swift build --show-bin-path)/FleetServer"
WORK="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The upstream: it exits when its stdin closes, so it gets a pipe that stays open until we end.
mkfifo "$WORK/upstream-in"
python3 ../../Tests/Fixtures/fixture_server.py --routes routes.json <"$WORK/upstream-in" >"$WORK/upstream-out" &
pids+=($!)
exec 3>"$WORK/upstream-in"
for _ in $(seq 50); do grep -q '^PORT ' "$WORK/upstream-out" 2>/dev/null && break; sleep 0.1; done
UPSTREAM_PORT="$(sed -n 's/^PORT //p' "$WORK/upstream-out")"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORTS=("$(free_port)" "$(free_port)")
for index in 0 1; do
  UPSTREAM_URL="http://127.0.0.1:$UPSTREAM_PORT/api" PORT="${PORTS[$index]}" INSTANCE="instance-$((index + 1))" \
    "$BIN" >"$WORK/instance-$index.log" 2>&1 &
  pids+=($!)
done
for port in "${PORTS[@]}"; do
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/forecast/none" && break; sleep 0.1; done
done

upstream_requests() {
  curl -s "http://127.0.0.1:$UPSTREAM_PORT/__control/requests" \
    | python3 -c 'import json, sys; print(sum(1 for r in json.load(sys.stdin) if r["path"] == "/api/forecast/'"$1"'"))'
}

echo "== both instances ask for Paris at the same moment"
curl -s "http://127.0.0.1:${PORTS[0]}/forecast/paris" >"$WORK/a" & first=$!
curl -s "http://127.0.0.1:${PORTS[1]}/forecast/paris" >"$WORK/b" & second=$!
wait "$first" "$second"
cat "$WORK/a"; echo; cat "$WORK/b"; echo
after_pair="$(upstream_requests paris)"
echo "upstream requests for Paris: $after_pair"

echo "== instance 2 asks again: from the shared cache"
again="$(curl -s "http://127.0.0.1:${PORTS[1]}/forecast/paris")"; echo "$again"

echo "== instance 1 removes everything; instance 2 asks again: upstream, not its memory"
curl -s -X DELETE "http://127.0.0.1:${PORTS[0]}/cache"
curl -s "http://127.0.0.1:${PORTS[1]}/forecast/paris"; echo
after_removal="$(upstream_requests paris)"
echo "upstream requests for Paris: $after_removal"

# What the fleet promises, checked (CI runs this script): one upstream request for the two
# instances, the second answer from the shared cache, and the removal honoured by instance 2.
if [ "$after_pair" != 1 ] || [[ "$again" != *'"source":"cache"'* ]] || [ "$after_removal" != 2 ]; then
  echo "error: expected 1 upstream request, then a cached answer, then 2 requests after the removal" >&2
  exit 1
fi
