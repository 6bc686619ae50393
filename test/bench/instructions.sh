#!/usr/bin/env bash
# Instructions per request of a bench scenario ((a) unless SCENARIO names another), counted by valgrind's callgrind: the same count
# for the same build and inputs whatever else the machine is doing, unlike req/s or CPU time on a
# shared machine. A tool for deciding whether a change made the facade cheaper, not a benchmark
# of its speed (it does not see cache misses, so a lower count is necessary, not sufficient).
#
#   test/bench/instructions.sh [facade|floor|baseline] [requests] [node flags...]
#
# Starts the simulator and the target (the facade as `npm run start:prod` runs it: its Node flags,
# the young generation pinned at its size (see PACE_FLAGS), then any flags given here, and
# dist/main.js, so run `npm run build` first), sends WARMUP requests with
# counting off (V8 compiles the hot code then), counts the next `requests`, and prints
# instructions per request, all threads included. Takes a minute or two:
# valgrind runs Node some 50 times slower. Needs valgrind (Debian: apt-get install valgrind).
# CONNECTIONS=<n> sends over n connections instead of the scenario's (1: one request at a time, so
# that no count depends on how many requests the machine's timing put into one turn of the loop).
# KEEP_OUT=<dir> keeps the run's files there: the profile (callgrind.out), the target's log and, for the
# facade, its /metrics just before and just after the counted requests (outside the count), so that
# two runs can be compared function by function (callgrind_annotate) and by what the service did,
# with callgrind_control's answers and the counted window's wall-clock bounds (counted-from, -until).
# WITHOUT_PLUGINS=<name,...> counts the facade without those entries of PLUGIN_ORDER
# (test/bench/without-plugins.ts): what a per-request feature costs, by switching it off.
# The floor runs under start:prod's Node flags too, with the scenario's floor environment.
# The facade's client deadlines are minutes: with 32 in flight under valgrind a request waits
# longer than the production 10 s for its turn, and would be answered 408 or cut.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The pinned runtime (the `node` package), as npm scripts run it; NODE_BIN_DIR names another.
export PATH="${NODE_BIN_DIR:-$PWD/node_modules/.bin}:$PATH"
SCENARIO=${SCENARIO:-a}

TARGET=${1:-facade}
REQUESTS=${2:-300}
shift $(( $# > 2 ? 2 : $# ))
# 6,000 warm-up requests: after 3,000 V8 still optimises some of the hot code, during the counted
# requests or before them depending on the machine's pace (the budget is counted after 6,000).
WARMUP=${WARMUP:-6000}
SIMULATOR_PORT=${SIMULATOR_PORT:-4981}
TARGET_PORT=$((SIMULATOR_PORT + 1))
OUT=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -z "${KEEP_OUT:-}" ] || { mkdir -p "$KEEP_OUT" && cp -r "$OUT"/. "$KEEP_OUT"; }; rm -rf "$OUT"' EXIT
# A timeout's SIGTERM (bench:gate) exits through the EXIT trap, so that no counted process outlives it.
trap 'exit 143' TERM INT
# As in the bench: the facade knows (a)'s query as a trusted document (scenario ad), and a scenario
# with an environment of its own (f: the response cache) gets it.
node --import tsx -e "import('./test/bench/scenarios.ts').then((m) => console.log(JSON.stringify(m.trustedDocumentsManifest())))" >"$OUT/manifest.json"
SCENARIO_ENV=$(node --import tsx -e "import('./test/bench/scenarios.ts').then((m) => {
  const scenario = m.buildScenarios().find((s) => s.id === '$SCENARIO');
  if (!scenario) { console.error('no scenario $SCENARIO'); process.exit(1); }
  const env = '$TARGET' === 'floor' ? m.floorEnvOf(scenario, '$OUT/manifest.json') : scenario.facadeEnv ?? {};
  console.log(Object.entries(env).map(([k, v]) => k + '=' + v).join(' '));
})")

# Where the count is, on stderr: each step under valgrind takes minutes, and stdout holds the result.
progress() { echo "$TARGET: $*" >&2; }

command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
[ "$TARGET" = baseline ] || [ -f dist/main.js ] || { echo "dist/main.js is missing: run npm run build" >&2; exit 1; }

# A count of another process would be taken for this one's: a simulator or target of another count
# on these ports answers the requests while this one's fails to listen and exits.
for port in "$SIMULATOR_PORT" "$TARGET_PORT"; do
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then echo "port $port is in use (another count?): set SIMULATOR_PORT" >&2; exit 1; fi
done

# Idle upstream connections are never closed here: valgrind's pace would otherwise let the simulator
# close a kept-alive connection just as the target reuses it, an error the baseline and the floor do not retry.
node --import tsx -e "import('./src/simulator/server.ts').then(async (m) => {
  const simulator = await m.startSimulator({ port: $SIMULATOR_PORT });
  simulator.server.keepAliveTimeout = 0;
})" >/dev/null &
SIMULATOR_PID=$!
APP_KEY=$(node --import tsx -e "import('./src/simulator/data.ts').then((m) => console.log(m.DEMO_APP_KEY))")
read -r -a PROD_FLAGS <<<"$(node --import tsx -e "import('./test/support/production-command.ts').then((m) => console.log(m.productionCommand('.').nodeArgs.join(' ')))")"
# V8 resizes the young generation by its allocation rate per millisecond of the wall clock, and
# shrinks it when that rate looks low: at valgrind's pace, slower still on a busy machine, it does,
# and the same requests then take many more scavenges (each walking all the roots), so the count
# would follow the machine's load. The young generation is pinned at start:prod's size, the one a
# production process keeps at any load that allocates faster than that, so that how many scavenges
# the counted requests take depends on what they allocate alone.
SEMI_SPACE_MB=$(printf '%s\n' "${PROD_FLAGS[@]}" | sed -n 's/^--max-semi-space-size=//p')
[ -n "$SEMI_SPACE_MB" ] || { echo "start:prod has no --max-semi-space-size to pin the young generation at" >&2; exit 1; }
PACE_FLAGS=(--min-semi-space-size="$SEMI_SPACE_MB")
# With several requests in flight, a turn of the loop under valgrind can outlast a response's
# keep-alive timer, which then cuts the connection the next request waits on (untimed-keep-alive.mjs).
[ "${CONNECTIONS:-0}" = 1 ] || PACE_FLAGS+=(--import="$PWD/test/bench/untimed-keep-alive.mjs")
COUNT=(valgrind --tool=callgrind --instr-atstart=no --smc-check=all-non-file --callgrind-out-file="$OUT/callgrind.out")
progress "starting under valgrind (Node runs some 50 times slower there: minutes)"
if [ "$TARGET" = baseline ]; then
  BASELINE_PORT=$TARGET_PORT UPSTREAM_TIMEOUT_MS=120000 PARTNER_API_URL=http://127.0.0.1:$SIMULATOR_PORT PARTNER_APP_KEY=$APP_KEY \
    "${COUNT[@]}" node --import tsx test/bench/baseline.ts >"$OUT/target.log" 2>&1 &
elif [ "$TARGET" = floor ]; then
  # shellcheck disable=SC2086 # SCENARIO_ENV is a list of NAME=value words.
  env $SCENARIO_ENV NODE_ENV=production FLOOR_PORT=$TARGET_PORT UPSTREAM_TIMEOUT_MS=120000 PARTNER_API_URL=http://127.0.0.1:$SIMULATOR_PORT \
    PARTNER_APP_KEY=$APP_KEY "${COUNT[@]}" node "${PROD_FLAGS[@]}" "${PACE_FLAGS[@]}" "$@" --import tsx test/bench/yoga-floor.ts >"$OUT/target.log" 2>&1 &
else
  ENTRY=dist/main.js
  if [ -n "${WITHOUT_PLUGINS:-}" ]; then
    npx esbuild test/bench/without-plugins.ts --bundle --splitting --platform=node --format=esm --packages=external \
      --log-level=warning --outdir=dist
    ENTRY=dist/without-plugins.js
  fi
  # shellcheck disable=SC2086 # SCENARIO_ENV is a list of NAME=value words.
  env $SCENARIO_ENV NODE_ENV=production LOG_LEVEL=warn PORT=$TARGET_PORT PARTNER_API_URL=http://127.0.0.1:$SIMULATOR_PORT \
    TRUSTED_DOCUMENTS="$OUT/manifest.json" TRUSTED_DOCUMENTS_ONLY=false \
    BENCH_WITHOUT_PLUGINS=${WITHOUT_PLUGINS:-} PARTNER_APP_KEY=$APP_KEY UPSTREAM_TIMEOUT_MS=120000 \
    HTTP_HEADERS_TIMEOUT_MS=600000 HTTP_REQUEST_TIMEOUT_MS=600000 HTTP_WRITE_TIMEOUT_MS=600000 \
    "${COUNT[@]}" node "${PROD_FLAGS[@]}" "${PACE_FLAGS[@]}" "$@" "$ENTRY" >"$OUT/target.log" 2>&1 &
fi
PID=$!
# Under valgrind, and more so on a busy machine, Node takes minutes to start.
for _ in $(seq 1 "${READY_TIMEOUT_S:-1200}"); do curl -s -o /dev/null "http://127.0.0.1:$TARGET_PORT/health" && break; sleep 1; done
curl -s -o /dev/null "http://127.0.0.1:$TARGET_PORT/health" || { echo "$TARGET did not start:" >&2; cat "$OUT/target.log" >&2; exit 1; }
kill -0 "$PID" 2>/dev/null && kill -0 "$SIMULATOR_PID" 2>/dev/null || { echo "$TARGET or its simulator exited (port in use?):" >&2; cat "$OUT/target.log" >&2; exit 1; }

drive() {
  node --import tsx -e "
    import autocannon from 'autocannon';
    import { buildScenarios } from './test/bench/scenarios.ts';
    const scenario = buildScenarios().find((s) => s.id === '$SCENARIO');
    const requests = '$TARGET' === 'baseline' ? scenario.baseline : scenario.facade;
    const request = requests[0];
    // A like-for-like scenario's requests in turn, as the bench sends them (drive.ts): the next
    // request, whichever connection is free, so that requests in flight are of distinct callers.
    let next = 0;
    const rotate = (sent) => {
      const { method, path, headers, body } = requests[next++ % requests.length];
      return { ...sent, method, path, headers, body };
    };
    const result = await autocannon({ url: 'http://127.0.0.1:$TARGET_PORT', connections: ${CONNECTIONS:-0} || scenario.connections,
      amount: $1, timeout: 120, method: request.method, headers: request.headers, body: request.body,
      requests: [requests.length > 1 ? { setupRequest: rotate } : { path: request.path }] });
    if (result.non2xx || result.timeouts) { console.error('failed requests', result); process.exit(1); }
    // At valgrind's pace a server's keep-alive timer may close a connection the client is reusing;
    // autocannon reconnects, and only answered requests are counted.
    if (result.errors) console.error(result.errors + ' connection errors, retried');
    console.log(result['2xx']);" >"$OUT/answered"
}
# As in the bench, a facade first answers five operations with a hundred listing fees: a facade that
# has served large operations runs in another state (docs/decisions/heap-limit.md). LARGE_OPERATIONS=0 skips them.
if [ "$TARGET" = facade ]; then
  node --import tsx -e "
    import { hundredFeesRequest } from './test/bench/scenarios.ts';
    const request = hundredFeesRequest();
    for (let i = 0; i < ${LARGE_OPERATIONS:-5}; i++) {
      const response = await fetch('http://127.0.0.1:$TARGET_PORT' + request.path, { method: request.method, headers: request.headers, body: request.body });
      await response.arrayBuffer();
      if (!response.ok) { console.error('large operation failed', response.status); process.exit(1); }
    }"
fi
progress "ready; warming up with $WARMUP requests"
scrape() { [ -z "${KEEP_OUT:-}" ] || [ "$TARGET" != facade ] || curl -s "http://127.0.0.1:$TARGET_PORT/metrics" >"$OUT/metrics-$1.txt"; }
drive "$WARMUP"
scrape before
callgrind_control -i on "$PID" >>"$OUT/control.log" 2>&1
progress "counting $REQUESTS requests"
date +%s.%N >"$OUT/counted-from"
drive "$REQUESTS"
date +%s.%N >"$OUT/counted-until"
callgrind_control -i off "$PID" >>"$OUT/control.log" 2>&1
scrape after
ANSWERED=$(cat "$OUT/answered")
kill -TERM "$PID"
wait "$PID" || true
TOTAL=$(awk '/^totals:/ { print $2 }' "$OUT/callgrind.out")
# CALLGRIND_OUT=<file> keeps the profile, for callgrind_annotate (native code by name, JIT code as ???).
[ -z "${CALLGRIND_OUT:-}" ] || cp "$OUT/callgrind.out" "$CALLGRIND_OUT"
echo "$TARGET${WITHOUT_PLUGINS:+ without $WITHOUT_PLUGINS} ($SCENARIO): $((TOTAL / ANSWERED)) instructions per request ($ANSWERED requests answered after $WARMUP)"
# The same count split into categories (see instruction-categories.ts), as one JSON line.
node --import tsx test/bench/instruction-categories.ts "$OUT/callgrind.out" "$ANSWERED"
