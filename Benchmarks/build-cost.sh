#!/usr/bin/env bash
# Build cost of generated code, cachegen beside swift-openapi-generator 1.14.3, on the same
# synthetic OpenAPI document (issue 13 item 6, issue 19 item 5). Printed figures, never a test.
#
#   Benchmarks/build-cost.sh CASE...        e.g.  100:cycle 120:chain 500:cycle 1000:chain:cachegen
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
# cost is `Benchmarks/build-overhead-openapi.sh`), the sources written by the generators' CLIs.
# Every build runs under `nice -n 10` and a watchdog that kills any process of the build past
# CAP_MB (default 10,240) of resident memory: then the figure is "killed at 10 GB".
#
# The figures to compare on a shared machine are CPU seconds (user + system of the whole build
# process tree, from wait4) and the peak resident memory of the largest single process (the
# compiler); wall seconds are printed too. `uptime` is printed before and after.
#
# MOCKS (default excluded, as the build plugin generates for an app's target) is passed to
# `cachegen generate --mocks`.
#
# Needs: cachegen (CACHEGEN, default .build/release/cachegen) and swift-openapi-generator
# (SOG, default $WORK/generator-src/.build/release/swift-openapi-generator; built from the
# package mirror when missing). WORK defaults to /tmp/cachegen-build-cost-sbs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
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
cap_kb=$(( ${CAP_MB:-10240} * 1024 ))
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
}

# Kills any process descended from $1 whose resident memory passes the cap (SwiftPM starts
# compilers in process groups of their own, so the tree is walked); notes it in $2.
watchdog() {
  local root=$1 mark=$2
  while kill -0 "$root" 2>/dev/null; do
    for pid in $(ps -eo pid=,ppid= | awk -v root="$root" '
        { parent[$1] = $2 }
        END { for (p in parent) { q = p; while (q > 1) { if (q == root) { print p; break } q = parent[q] } } }'); do
      rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      if [ "${rss:-0}" -gt "$cap_kb" ]; then
        echo "killed" >"$mark"
        kill -9 "$pid" 2>/dev/null || true
      fi
    done
    sleep 0.25
  done
}

# One build of package $1 (debug or $2=release), target Generated. Prints
# "wall cpu peak_MB exit killed?".
build() {
  local package=$1 config=${2:-debug}
  rm -f "$work/killed"
  set -m
  ( /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" nice -n 10 swift build -c "$config" \
      --package-path "$package" --target Generated >"$work/build.log" 2>&1; echo $? >"$work/status.txt" ) &
  local job=$!
  set +m
  watchdog "$job" "$work/killed" &
  local dog=$!
  wait "$job" || true
  kill "$dog" 2>/dev/null || true
  wait "$dog" 2>/dev/null || true
  local seconds user system peak_kb
  read -r seconds user system peak_kb < <(tail -n 1 "$work/time.txt") || { seconds=0 user=0 system=0 peak_kb=0; }
  local status; status=$(cat "$work/status.txt")
  [ "$status" = 0 ] || [ -f "$work/killed" ] || tail -n 5 "$work/build.log" >&2
  echo "$seconds $(python3 -c "print(f'{$user + $system:.1f}')") $((peak_kb / 1024)) $status $([ -f "$work/killed" ] && echo killed || echo ok)"
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

name() { [ "$1" = A ] && echo cachegen || echo swift-openapi-generator; }
lines() { cat "$work/$1/Sources/Generated"/*.swift | wc -l; }
files() { ls "$work/$1/Sources/Generated"/*.swift | wc -l; }
report() {  # side label "wall cpu peak status killed" [empty-cpu empty-wall]
  local side=$1 label=$2 wall cpu peak status killed
  read -r wall cpu peak status killed <<<"$3"
  if [ "$killed" = killed ]; then
    echo "  $(name "$side") $label: killed at $((cap_kb / 1024 / 1024)) GB after ${wall} s wall / ${cpu} s CPU"
  elif [ "$status" != 0 ]; then
    echo "  $(name "$side") $label: build failed (exit $status)"
  elif [ -n "${4:-}" ]; then
    echo "  $(name "$side") $label: ${cpu} s CPU, ${wall} s wall, peak ${peak} MB; net of empty target: $(python3 -c "print(f'{$cpu - $4:.1f} s CPU, {$wall - $5:.1f} s wall')")"
  else
    echo "  $(name "$side") $label: ${cpu} s CPU, ${wall} s wall, peak ${peak} MB"
  fi
}

make_packages
cp "$cachegen" "$work/cachegen-bin"; cachegen=$work/cachegen-bin   # the binary of this run, whatever happens to the checkout
needed=A   # B too when a case's SIDES (its third field) is both, sog or left out
for case in "$@"; do case "$(cut -d: -f3 <<<"$case")" in ""|both|sog) needed="A B";; esac; done
if [ "$needed" != A ] && [ ! -x "$sog" ]; then   # swift-openapi-generator's CLI, release, once
  [ -d "$work/generator-src" ] || git clone -q -b 1.14.3 https://github.com/apple/swift-openapi-generator "$work/generator-src"
  nice -n 10 swift build -c release --package-path "$work/generator-src" --product swift-openapi-generator >&2
fi
for side in $needed; do   # dependencies once, untimed
  generate "$side" empty
  nice -n 10 swift build --package-path "$work/$side" >/dev/null 2>&1 || { echo "dependencies of $side did not build" >&2; exit 1; }
done
echo "uptime before: $(uptime)"
for case in "$@"; do
  IFS=: read -r endpoints shape sides flags <<<"$case"
  sides=${sides:-both} case_edits=$edits case_release=$release
  case ",$flags," in *,noedits,*) case_edits=0;; esac
  case ",$flags," in *,release,*) case_release=1;; esac
  doc="$work/doc-$endpoints-$shape"
  python3 "$repo/Scripts/fixtures/make-large-spec.py" "$doc.json" --endpoints "$endpoints" --shape "$shape" --openapi 2>/dev/null
  python3 "$repo/Scripts/fixtures/make-large-spec.py" "$doc-prop.json" --endpoints "$endpoints" --shape "$shape" --openapi --add-property 2>/dev/null
  python3 "$repo/Scripts/fixtures/make-large-spec.py" "$doc-endpoint.json" --endpoints "$endpoints" --shape "$shape" --openapi --add-endpoint 2>/dev/null
  case $sides in both) list="A B";; cachegen) list=A;; sog) list=B;; esac
  echo "== $endpoints endpoints, $((endpoints / 3)) models, $shape ($(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"
  for run in $(seq "$runs"); do
    for side in $list; do
      # Files are copied in with the document's name so both generators name outputs the same way.
      cp "$doc.json" "$work/openapi.json"
      generate "$side" empty; clean "$work/$side" debug
      read -r e_wall e_cpu _ <<<"$(build "$work/$side")"
      generate "$side" "$work/openapi.json"; clean "$work/$side" debug
      result=$(build "$work/$side")
      report "$side" "clean debug build ($(files "$side") files, $(lines "$side") lines; empty target ${e_cpu} s CPU)" "$result" "$e_cpu" "$e_wall"
      read -r _ _ _ status killed <<<"$result"
      if [ "$case_edits" = 1 ] && [ "$status" = 0 ]; then
        cp "$doc-prop.json" "$work/openapi.json"; generate "$side" "$work/openapi.json"
        report "$side" "rebuild after a property added to one model" "$(build "$work/$side")"
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
