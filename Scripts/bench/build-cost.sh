#!/usr/bin/env bash
# Build cost of generated code: cachegen beside swift-openapi-generator 1.14.3 on the same
# synthetic OpenAPI document (issue 13 item 6, issue 19 item 5), or cachegen alone on any spec.
# Printed figures, never a test. The one build-cost script (issue 38 item 5: before, a second
# one in Benchmarks/ had a watchdog of its own).
#
#   Scripts/bench/build-cost.sh CASE...        e.g.  100:cycle 120:chain 500:cycle 1000:chain:cachegen
#   Scripts/bench/build-cost.sh chart          the chart's cases, then Benchmarks/build-cost.txt and .svg
#   Scripts/bench/build-cost.sh spec SPEC...   cachegen alone on each spec or document (CACHEGEN= a binary)
#   Scripts/bench/build-cost.sh targets        every issue 28 target, before and after, one sitting
#
# A CASE is ENDPOINTS:SHAPE[:SIDES[:FLAGS]], SHAPE chain or cycle (`Scripts/fixtures/make-large-spec.py
# --shape`), SIDES `both` (default), `cachegen` or `sog`, FLAGS `noedits` and/or `release`
# (comma-separated) to override EDITS and RELEASE for that case. For each case, A (cachegen) and B
# (swift-openapi-generator) alternate, A B A B, RUNS times (default 1):
#   - clean debug build of the generated target, and of an empty target in the same package
#     (same dependencies), so the figure is net of the package's fixed cost;
#   - a rebuild after adding a property to one model (the middle one) and after adding one
#     endpoint (EDITS=0 skips them);
#   - a clean release build of cachegen's target (RELEASE=1).
# Each side's generated Swift sits in a package of its own (no build plugin: the plugin's own
# cost is `Scripts/bench/build-overhead-openapi.sh`), the sources written by the generators' CLIs.
# Every build runs under `nice -n 10` and `Scripts/ci/watchdog.py --max-rss-mb`, which kills any
# process of the build past CAP_MB (default 10,240) of resident memory: then the figure is
# "killed at 10 GB".
#
# `chart` measures 120, 500 and 1,000 endpoints (cycle, both sides, no edits), writes what it
# printed to Benchmarks/build-cost.txt and draws Benchmarks/build-cost.svg from it
# (`Scripts/bench/build-cost-chart.py`), the date, commit and command in the chart's caption.
# CHART_DIR writes both elsewhere.
#
# `spec` measures cachegen alone: a clean debug build of each SPEC's generated code (a spec,
# an OpenAPI document or an overlay; e.g. from `make-large-spec.py --shape chain`), net of an
# empty target, with the peak of the largest compiler; CACHEGEN names the binary, so two versions
# can be compared side by side on the same spec.
#
# The figures to compare on a shared machine are CPU seconds (user + system of the whole build
# process tree, from wait4) and the peak resident memory of the largest single process (the
# compiler); wall seconds are printed too. `uptime` is printed before and after.
#
# MOCKS (default excluded, as the build plugin generates for an app's target) is passed to
# `cachegen generate --mocks`.
#
#   (ENDPOINTS=20 SOG_ENDPOINTS=10 OVERHEAD=0 RUNTIME=0 RUNS=1 … targets: a quick try of `targets`)
#
# `targets` builds cachegen (release) from two checkouts, BEFORE (a commit, default d8ed800: the
# code when issue 28 was filed, whose app target compiled the mocks too) and this working tree,
# and measures them side by side, alternating the order run by run (RUNS, default 2; medians):
#   - 500 endpoints, cycle and chain: clean debug build net of an empty target, the peak of one
#     compiler, the rebuild after a property added to one model;
#   - 120 endpoints, cycle, beside swift-openapi-generator: the CPU and memory ratios;
#   - the files an app's target gets for a 5-endpoint spec;
#   - the plugin's overhead on a clean build of Examples/NewsDemo (`Scripts/bench/build-overhead.sh`
#     on each checkout, then after with TOOL=prebuilt, the plugins running the artifact bundle a
#     release would ship; OVERHEAD=0 skips it);
#   - instructions per call on the hit paths, under callgrind (`Benchmarks` product `Profile` of
#     each checkout, release; the difference of 4,000 and 2,000 calls; RUNTIME=0 skips it).
# It prints a table: each figure before and after, its target, and whether the after figure holds.
#
# Needs: cachegen (CACHEGEN, default .build/release/cachegen) and swift-openapi-generator
# (SOG, default $WORK/generator-src/.build/release/swift-openapi-generator; built from the
# package mirror when missing). WORK defaults to /tmp/cachegen-build-cost-sbs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/tmp/cachegen-build-cost-sbs}
cachegen=${CACHEGEN:-$repo/.build/release/cachegen}
sog=${SOG:-$work/generator-src/.build/release/swift-openapi-generator}
runs=${RUNS:-1} edits=${EDITS:-1} release=${RELEASE:-0}
# What an app's target compiles: the clients without mocks (the build plugin's default for a
# target that is not a test target); MOCKS=included measures what it compiled before.
mocks=${MOCKS:-excluded}
# GENERATE, a JSON object such as '{ "queries": false }', generates through an overlay with that
# `generate` (the constructs to leave out); default: every construct.
constructs=${GENERATE:-}
cap_mb=${CAP_MB:-10240}
mkdir -p "$work"


# The two packages: A depends on this checkout's runtime, B on swift-openapi-runtime 1.13.4 and
# swift-openapi-urlsession 1.4.0 (what swift-openapi-generator's generated client needs).
make_packages() {
  mkdir -p "$work/A/Sources/Generated" "$work/B/Sources/Generated" "$work/cachegen-src"
  # A snapshot of the runtime's package, so edits to the checkout during a run rebuild nothing.
  rm -rf "$work/cachegen-src/Sources" "$work/cachegen-src/Tests" "$work/cachegen-src/Plugins"
  cp -Rp "$repo/Package.swift" "$repo/Sources" "$repo/Plugins" "$repo/Tests" "$work/cachegen-src/"
  cat >"$work/A/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "CostA",
    dependencies: [.package(name: "cachegen", path: "$work/cachegen-src")],
    targets: [.target(name: "Generated", dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")])]
)
SWIFT
  cat >"$work/B/Package.swift" <<'SWIFT'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "CostB",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
    ],
    targets: [.target(name: "Generated", dependencies: [
        .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
    ])]
)
SWIFT
  printf 'generate:\n  - types\n  - client\naccessModifier: public\n' >"$work/openapi-generator-config.yaml"
  if [ -n "${before_src:-}" ]; then   # P: the same package over the before checkout's runtime
    mkdir -p "$work/P/Sources/Generated"
    sed "s|$work/cachegen-src|$before_src|; s|CostA|CostP|" "$work/A/Package.swift" >"$work/P/Package.swift"
  fi
}

# One build of package $1 (debug or $2=release), target Generated. Prints
# "wall cpu peak_MB exit killed?".
build() {
  local package=$1 config=${2:-debug}
  # Scripts/ci/watchdog.py kills any process of the build past the cap and then exits 125.
  python3 "$repo/Scripts/ci/watchdog.py" --quiet-minutes 0 --max-rss-mb "$cap_mb" -- \
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" nice -n 10 swift build -c "$config" \
    --package-path "$package" --target Generated >"$work/build.log" 2>&1 && status=0 || status=$?
  local seconds user system peak_kb killed=ok
  [ "$status" = 125 ] && killed=killed
  read -r seconds user system peak_kb < <(tail -n 1 "$work/time.txt") || { seconds=0 user=0 system=0 peak_kb=0; }
  [ "$status" = 0 ] || [ "$killed" = killed ] || tail -n 5 "$work/build.log" >&2
  echo "$seconds $(python3 -c "print(f'{$user + $system:.1f}')") $((peak_kb / 1024)) $status $killed"
}

clean() {   # the generated target's products only; dependencies stay built
  rm -rf "$1/.build/$2/Generated.build" "$1/.build/$2/Modules/Generated.swiftmodule" \
    "$1/.build/x86_64-unknown-linux-gnu/$2/Generated.build" "$1/.build/x86_64-unknown-linux-gnu/$2/Modules/Generated.swiftmodule"
}

# Writes side $1's sources for document $2 (or an empty target for "empty").
generate() {
  local side=$1 document=$2 out="$work/$1/Sources/Generated"
  if [ "$document" = empty ]; then
    rm -rf "$out"; mkdir -p "$out"
    echo "public let empty = 0" >"$out/Empty.swift"
  elif [ "$side" = P ]; then
    rm -f "$out/Empty.swift"
    "$cachegen_before" generate "$document" --output "$out" >/dev/null
  elif [ "$side" = A ]; then
    rm -f "$out/Empty.swift"
    if [ -n "$constructs" ]; then
      # An overlay beside the document, named as it is, so the files keep their names.
      local overlay="${document%.json}.cachegen.json"
      printf '{ "openapi": "%s", "generate": %s }\n' "$(basename "$document")" "$constructs" >"$overlay"
      "$cachegen" generate "$overlay" --output "$out" --mocks "$mocks" >/dev/null
    else
      "$cachegen" generate "$document" --output "$out" --mocks "$mocks" >/dev/null
    fi
  else
    rm -f "$out/Empty.swift"
    "$sog" generate --config "$work/openapi-generator-config.yaml" --output-directory "$out" "$document" >/dev/null 2>&1
  fi
}

name() { case $1 in A) echo cachegen;; P) echo "cachegen before";; *) echo swift-openapi-generator;; esac; }
lines() { cat "$work/$1/Sources/Generated"/*.swift | wc -l; }
files() { ls "$work/$1/Sources/Generated"/*.swift | wc -l; }
report() {  # side label "wall cpu peak status killed" [empty-cpu empty-wall]
  local side=$1 label=$2 wall cpu peak status killed
  read -r wall cpu peak status killed <<<"$3"
  if [ "$killed" = killed ]; then
    echo "  $(name "$side") $label: killed at $((cap_mb / 1024)) GB after ${wall} s wall / ${cpu} s CPU"
  elif [ "$status" != 0 ]; then
    echo "  $(name "$side") $label: build failed (exit $status)"
  elif [ -n "${4:-}" ]; then
    echo "  $(name "$side") $label: ${cpu} s CPU, ${wall} s wall, peak ${peak} MB; net of empty target: $(python3 -c "print(f'{$cpu - $4:.1f} s CPU, {$wall - $5:.1f} s wall')")"
  else
    echo "  $(name "$side") $label: ${cpu} s CPU, ${wall} s wall, peak ${peak} MB"
  fi
}

# Writes the synthetic document of $1 endpoints in shape $2 to $doc.json, and its two edits
# beside it ($doc-prop.json, $doc-endpoint.json).
write_documents() {
  doc="$work/doc-$1-$2"
  local edit
  for edit in "" prop endpoint; do
    python3 "$repo/Scripts/fixtures/make-large-spec.py" "$doc${edit:+-$edit}.json" --endpoints "$1" --shape "$2" \
      --openapi ${edit:+--add-$([ "$edit" = prop ] && echo property || echo endpoint)} 2>/dev/null
  done
}

# Builds swift-openapi-generator's CLI when side B is among $@ (release, once), then each side's
# dependencies (untimed).
prepare_sides() {
  if [[ " $* " == *" B "* ]] && [ ! -x "$sog" ]; then
    [ -d "$work/generator-src" ] || git clone -q -b 1.14.3 https://github.com/apple/swift-openapi-generator "$work/generator-src"
    nice -n 10 swift build -c release --package-path "$work/generator-src" --product swift-openapi-generator >&2
  fi
  for side in "$@"; do
    generate "$side" empty
    nice -n 10 swift build --package-path "$work/$side" >/dev/null 2>&1 || { echo "dependencies of $side did not build" >&2; exit 1; }
  done
}

# Appends one figure for `targets`: FIGURE SIDE VALUE.
record() { echo "$1 $2 $3" >>"$work/targets.txt"; }

# Clean build of side $1 from $doc.json, net of an empty target, then (unless $2 = noedits) the
# rebuild after a property added to one model; prints each and records them under FIGURE-PREFIX
# $3. Fails when the clean build failed or was killed at the cap.
measure_side() {
  local side=$1 edits=$2 prefix=$3 e_wall e_cpu wall cpu peak status killed
  # Files are copied in with the document's name so both generators name outputs the same way.
  cp "$doc.json" "$work/openapi.json"
  generate "$side" empty; clean "$work/$side" debug
  read -r e_wall e_cpu _ <<<"$(build "$work/$side")"
  generate "$side" "$work/openapi.json"; clean "$work/$side" debug
  read -r wall cpu peak status killed <<<"$(build "$work/$side")"
  report "$side" "clean debug build ($(files "$side") files, $(lines "$side") lines; empty target ${e_cpu} s CPU)" \
    "$wall $cpu $peak $status $killed" "$e_cpu" "$e_wall"
  if [ "$status" != 0 ]; then record "$prefix.killed" "$side" 1; return 1; fi
  record "$prefix.clean-wall" "$side" "$(python3 -c "print(f'{$wall - $e_wall:.1f}')")"
  record "$prefix.clean-cpu" "$side" "$(python3 -c "print(f'{$cpu - $e_cpu:.1f}')")"
  record "$prefix.peak" "$side" "$peak"
  [ "$edits" = noedits ] && return 0
  cp "$doc-prop.json" "$work/openapi.json"; generate "$side" "$work/openapi.json"
  read -r wall cpu peak status killed <<<"$(build "$work/$side")"
  report "$side" "rebuild after a property added to one model" "$wall $cpu $peak $status $killed"
  record "$prefix.edit-wall" "$side" "$wall"
}

# The cases named on the command line, each side's figures as they come.
run_cases() {
  make_packages
  cp "$cachegen" "$work/cachegen-bin"; cachegen=$work/cachegen-bin   # the binary of this run, whatever happens to the checkout
  needed=A   # B too when a case's SIDES (its third field) is both, sog or left out
  for case in "$@"; do case "$(cut -d: -f3 <<<"$case")" in ""|both|sog) needed="A B";; esac; done
  prepare_sides $needed
  echo "uptime before: $(uptime)"
  for case in "$@"; do
    IFS=: read -r endpoints shape sides flags <<<"$case"
    sides=${sides:-both} case_edits=$edits case_release=$release
    case ",$flags," in *,noedits,*) case_edits=0;; esac
    case ",$flags," in *,release,*) case_release=1;; esac
    write_documents "$endpoints" "$shape"
    case $sides in both) list="A B";; cachegen) list=A;; sog) list=B;; esac
    echo "== $endpoints endpoints, $((endpoints / 3)) models, $shape ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
    for run in $(seq "$runs"); do
      for side in $list; do
        if measure_side "$side" "$([ "$case_edits" = 1 ] && echo edits || echo noedits)" "$endpoints-$shape" \
          && [ "$case_edits" = 1 ]; then
          cp "$doc.json" "$work/openapi.json"; generate "$side" "$work/openapi.json"
          build "$work/$side" >/dev/null
          cp "$doc-endpoint.json" "$work/openapi.json"; generate "$side" "$work/openapi.json"
          report "$side" "rebuild after one endpoint added" "$(build "$work/$side")"
        fi
        if [ "$case_release" = 1 ] && [ "$side" = A ]; then
          generate A empty
          nice -n 10 swift build -c release --package-path "$work/A" >/dev/null 2>&1 || true   # dependencies
          cp "$doc.json" "$work/openapi.json"; generate A "$work/openapi.json"; clean "$work/A" release
          report A "clean release build" "$(build "$work/A" release)"
        fi
      done
    done
  done
  echo "uptime after: $(uptime)"
}

# --- targets: every issue 28 target, before and after, one sitting ---------------------------

# Instructions per call of Profile workload "$1" (its arguments before the count) of the binary
# $2: the difference of 4,000 and 2,000 calls under callgrind, so setup is left out.
instructions() {
  local counts=() n
  for n in 2000 4000; do
    counts+=("$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$2" $1 $n 2>&1 \
      | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')")
  done
  echo $(( (counts[1] - counts[0]) / 2000 ))
}

run_targets() {
  local ref=${BEFORE:-d8ed800} runs=${RUNS:-2} run side order figure
  before_src=$work/before-src
  echo "before: $ref ($(git -C "$repo" log -1 --format='%h %ad' --date=short "$ref")); after: this working tree ($(git -C "$repo" log -1 --format=%h))"
  # Both checkouts, as files: before from git, after copied (with the Benchmarks package's sources).
  if [ "$(cat "$before_src/.ref" 2>/dev/null)" != "$(git -C "$repo" rev-parse "$ref")" ]; then
    rm -rf "$before_src"; mkdir -p "$before_src"
    git -C "$repo" archive "$ref" | tar -x -C "$before_src"
    git -C "$repo" rev-parse "$ref" >"$before_src/.ref"
  fi
  make_packages
  mkdir -p "$work/cachegen-src/Benchmarks"
  cp -Rp "$repo/Benchmarks/Package.swift" "$repo/Benchmarks/Sources" "$repo/Benchmarks/Benchmarks" "$work/cachegen-src/Benchmarks/"
  # Each checkout's tool, release, untimed.
  for side in "$before_src" "$work/cachegen-src"; do
    nice -n 10 swift build -c release --package-path "$side" --product cachegen >/dev/null 2>&1 \
      || { echo "cachegen did not build in $side" >&2; exit 1; }
  done
  cachegen_before=$before_src/.build/release/cachegen cachegen=$work/cachegen-src/.build/release/cachegen
  prepare_sides P A B
  : >"$work/targets.txt"
  echo "uptime before: $(uptime)"

  local large=${ENDPOINTS:-500} small=${SOG_ENDPOINTS:-120}   # smaller for a quick try of the script
  for shape in cycle chain; do
    write_documents "$large" "$shape"
    echo "== $large endpoints, $shape ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
    for run in $(seq "$runs"); do
      order="P A"; (( run % 2 == 0 )) && order="A P"
      for side in $order; do measure_side "$side" edits "500-$shape" || true; done
    done
  done

  write_documents "$small" cycle
  echo "== $small endpoints, cycle, beside swift-openapi-generator ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
  for run in $(seq "$runs"); do
    order="P A B"; (( run % 2 == 0 )) && order="B A P"
    for side in $order; do measure_side "$side" noedits 120-cycle || true; done
  done

  # The files an app's target gets for a small spec: the CLI sizes the layout as the plugin does.
  python3 "$repo/Scripts/fixtures/make-large-spec.py" "$work/Small.cachegen.json" --endpoints 5 --shape cycle 2>/dev/null
  for side in P A; do
    rm -rf "$work/small-out"
    if [ "$side" = P ]; then "$cachegen_before" generate "$work/Small.cachegen.json" --output "$work/small-out" >/dev/null
    else "$cachegen" generate "$work/Small.cachegen.json" --output "$work/small-out" --mocks excluded >/dev/null; fi
    record small-files "$side" "$(ls "$work/small-out"/*.swift | wc -l)"
  done

  if [ "${OVERHEAD:-1}" = 1 ]; then
    echo "== the plugin's overhead on Examples/NewsDemo ($(date -u +%H:%M) UTC)"
    for side in P A; do
      local source=$before_src; [ "$side" = A ] && source=$repo
      SOURCE=$source nice -n 10 "$repo/Scripts/bench/build-overhead.sh" "$runs" 2>&1 | tee "$work/overhead-$side.txt" | sed "s/^/  $(name $side): /"
      record overhead "$side" "$(sed -n 's/.*the plugin adds: *\([-0-9.]*\) s.*/\1/p' "$work/overhead-$side.txt")"
    done
    # After, with the plugins running the artifact bundle a release would ship.
    TOOL=prebuilt SOURCE=$repo nice -n 10 "$repo/Scripts/bench/build-overhead.sh" "$runs" 2>&1 \
      | tee "$work/overhead-prebuilt.txt" | sed "s/^/  cachegen, prebuilt tool: /"
    record overhead-prebuilt A "$(sed -n 's/.*the plugin adds: *\([-0-9.]*\) s.*/\1/p' "$work/overhead-prebuilt.txt")"
  fi

  if [ "${RUNTIME:-1}" = 1 ]; then
    echo "== hit paths under callgrind ($(date -u +%H:%M) UTC)"
    for side in P A; do
      local source=$before_src; [ "$side" = A ] && source=$work/cachegen-src
      nice -n 10 swift build -c release --package-path "$source/Benchmarks" --product Profile >"$work/profile-$side.log" 2>&1 \
        || { tail -n 20 "$work/profile-$side.log" >&2; exit 1; }
      for workload in "client-hit 1024" "layer-hit 1024" key; do
        record "instructions-${workload%% *}" "$side" "$(instructions "$workload" "$source/Benchmarks/.build/release/Profile")"
      done
    done
  fi
  echo "uptime after: $(uptime)"
  python3 "$repo/Scripts/bench/build-cost-targets.py" "$work/targets.txt" "$ref"
}

# --- spec: cachegen alone on given specs or documents ------------------------------------------

run_specs() {
  [ $# -gt 0 ] || { echo "usage: Scripts/bench/build-cost.sh spec SPEC..." >&2; exit 2; }
  make_packages
  cp "$cachegen" "$work/cachegen-bin"; cachegen=$work/cachegen-bin
  prepare_sides A
  echo "uptime before: $(uptime)"
  local spec i=0
  for spec in "$@"; do
    i=$((i + 1)); doc="$work/spec-$i"; cp "$spec" "$doc.json"
    echo "== $(basename "$spec") ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
    for run in $(seq "$runs"); do measure_side A noedits "spec-$i" || true; done
  done
  echo "uptime after: $(uptime)"
}

# --- chart: the cases the chart draws, measured and drawn in one go ----------------------------

run_chart() {
  local out=${CHART_DIR:-$repo/Benchmarks}
  local cases="120:cycle:both:noedits 500:cycle:both:noedits 1000:cycle:both:noedits"
  {
    echo "measured $(date -u '+%Y-%m-%d %H:%M') UTC at $(git -C "$repo" log -1 --format=%h)" \
      "by Scripts/bench/build-cost.sh chart ($cases)"
    # shellcheck disable=SC2086
    run_cases $cases
  } | tee "$out/build-cost.txt"
  python3 "$repo/Scripts/bench/build-cost-chart.py" "$out/build-cost.txt" "$out/build-cost.svg"
}

case "${1:-}" in
  targets) run_targets ;;
  chart) run_chart ;;
  spec) shift; run_specs "$@" ;;
  *) run_cases "$@" ;;
esac
