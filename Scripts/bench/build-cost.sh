#!/usr/bin/env bash
# Clean debug build of generated code, net of an empty target, with the peak memory of the
# largest compiler process, under a watchdog that kills any compiler of this build past a
# memory cap (default 8 GB): uncapped, a pathological shape can take the machine down.
#
#   Scripts/bench/build-cost.sh CACHEGEN SPEC [RUNS]
#
# CACHEGEN is the cachegen binary to generate with (so two versions can be compared side by
# side on the same spec); SPEC a spec, e.g. from `make-large-spec.py --shape chain`. The
# scratch package lives in $BENCH_WORK (default /tmp/cachegen-build-cost) and depends on this
# checkout's runtime (or RUNTIME_PACKAGE's), built once, untimed. CAP_MB overrides the cap.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
tool=$1 spec=$2 runs=${3:-1}
work=${BENCH_WORK:-/tmp/cachegen-build-cost}
cap_kb=$(( ${CAP_MB:-8192} * 1024 ))
mkdir -p "$work/Sources/Generated"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "BuildCost",
    dependencies: [.package(name: "cachegen", path: "${RUNTIME_PACKAGE:-$repo}")],
    targets: [.target(name: "Generated", dependencies: [.product(name: "CachedClientRuntime", package: "cachegen")])]
)
SWIFT

# Kills compiler processes descended from $1 (SwiftPM starts each in a process group of its
# own, so the tree is walked) whose resident memory passes the cap.
watchdog() {
  local root=$1
  while kill -0 "$root" 2>/dev/null; do
    for pid in $(ps -eo pid=,ppid=,comm= | awk -v root="$root" '
        { parent[$1] = $2; name[$1] = $3 }
        END { for (p in parent) { q = p; while (q > 1) { if (q == root) { if (name[p] == "swift-frontend") print p; break } q = parent[q] } } }'); do
      rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
      if [ "${rss:-0}" -gt "$cap_kb" ]; then
        echo "watchdog: swift-frontend $pid passed $((cap_kb / 1024)) MB; killed" >&2
        kill -9 "$pid" 2>/dev/null || true
      fi
    done
    sleep 0.2
  done
}

# One clean build of the Generated target; prints "wall_seconds cpu_seconds peak_MB status"
# (CPU time, user + system of every process, is the figure to compare on a shared machine).
build_once() {
  rm -rf "$work/.build/debug/Generated.build" "$work/.build/debug/Modules/Generated.swiftmodule" \
    "$work/.build/x86_64-unknown-linux-gnu/debug/Generated.build"
  set -m
  ( /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" swift build --package-path "$work" --target Generated \
      >"$work/build.log" 2>&1; echo $? >"$work/status.txt" ) &
  local job=$!
  set +m
  watchdog "$job" &
  local dog=$!
  wait "$job" || true
  kill "$dog" 2>/dev/null || true
  wait "$dog" 2>/dev/null || true
  # GNU time writes "Command exited with non-zero status N" first when the build fails.
  read -r seconds user system peak_kb < <(tail -n 1 "$work/time.txt") || { seconds=0 user=0 system=0 peak_kb=0; }
  echo "$seconds $(python3 -c "print(f'{$user + $system:.1f}')") $((peak_kb / 1024)) $(cat "$work/status.txt")"
}

generate() {
  rm -rf "$work/Sources/Generated"
  mkdir -p "$work/Sources/Generated"
  if [ "$1" = empty ]; then
    echo "public let empty = 0" >"$work/Sources/Generated/Empty.swift"
  else
    "$tool" generate "$spec" --output "$work/Sources/Generated" >/dev/null
  fi
}

generate empty
swift build --package-path "$work" >/dev/null 2>&1   # the runtime, once
for run in $(seq "$runs"); do
  generate empty
  read -r empty_s empty_cpu empty_mb empty_status < <(build_once)
  generate spec
  read -r gen_s gen_cpu gen_mb gen_status < <(build_once)
  files=$(ls "$work/Sources/Generated" | wc -l)
  lines=$(cat "$work/Sources/Generated"/*.swift | wc -l)
  net=$(python3 -c "print(f'{$gen_s - $empty_s:.1f} s wall, {$gen_cpu - $empty_cpu:.1f} s CPU')")
  echo "$(basename "$spec"): $files files, $lines lines; clean build $gen_s s wall / $gen_cpu s CPU (empty target $empty_s / $empty_cpu), net $net; peak compiler ${gen_mb} MB; exit $gen_status"
  [ "$gen_status" = 0 ] || tail -n 5 "$work/build.log" >&2
done
