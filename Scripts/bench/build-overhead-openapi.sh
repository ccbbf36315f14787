#!/usr/bin/env bash
# The build plugins' own cost on a clean debug build, cachegen beside swift-openapi-generator
# 1.14.3, on the same real OpenAPI document (issue 13 item 6). Printed figures, never a test.
#
#   Scripts/bench/build-overhead-openapi.sh [RUNS]      (default 3; DOC=path/to/document.yaml)
#
# Four packages, each with one library target over the same document (default
# Tests/Fixtures/ThirdParty/openapi/petstore-expanded.yaml) and the generator's runtime as its dependency:
#   cachegen-plugin   the document and an overlay naming it, CacheGenPlugin generates at build time
#   cachegen-plain    the same target with the Swift that plugin writes checked in, no plugin
#   sog-plugin        the document and openapi-generator-config.yaml, OpenAPIGenerator plugin
#   sog-plain         the same target with the Swift that plugin writes checked in, no plugin
# A clean build removes everything SwiftPM built (dependencies included, as a user's first
# build or CI's does) and keeps only the resolved checkouts, so no network or clone is timed.
# The plugin's overhead is the plugin build minus the plain build of the same generator.
# Runs alternate cachegen-plugin, cachegen-plain, sog-plugin, sog-plain, RUNS times, every
# build under `nice -n 10`; printed per build and as medians: CPU seconds (user + system of
# the whole process tree, the figure that survives a shared machine), wall seconds, and the
# peak resident memory of the largest process. `uptime` before and after.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-3}
doc=${DOC:-$repo/Tests/Fixtures/ThirdParty/openapi/petstore-expanded.yaml}
work=${WORK:-/tmp/cachegen-build-overhead-openapi}
[ -f "$doc" ] || { echo "no document at $doc (set DOC)" >&2; exit 2; }
mkdir -p "$work"

# A snapshot of this checkout's package, so edits during a run rebuild nothing.
rm -rf "$work/cachegen-src"; mkdir -p "$work/cachegen-src"
cp -Rp "$repo/Package.swift" "$repo/Sources" "$repo/Plugins" "$repo/Tests" "$work/cachegen-src/"

manifest() {  # package name, "plugin" or "plain", side (cachegen or sog)
  local deps products plugin=""
  if [ "$3" = cachegen ]; then
    deps=".package(name: \"cachegen\", path: \"$work/cachegen-src\")"
    products='.product(name: "CachedClientRuntime", package: "cachegen")'
    [ "$2" = plugin ] && plugin=', plugins: [.plugin(name: "CacheGenPlugin", package: "cachegen")]'
  else
    deps='.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0")'
    products='.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")'
    [ "$2" = plugin ] && plugin=', plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]'
  fi
  cat <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "$1",
    platforms: [.macOS(.v13)],
    dependencies: [
        $deps
    ],
    targets: [.target(name: "API", dependencies: [
            $products
        ]$plugin)]
)
SWIFT
}

# The plugin packages' inputs, then a first build of each whose generated Swift the plain
# packages check in.
for side in cachegen sog; do
  for kind in plugin plain; do
    package="$work/$side-$kind"
    rm -rf "$package/Sources"; mkdir -p "$package/Sources/API"
    manifest "$side-$kind" "$kind" "$side" >"$package/Package.swift"
    # SwiftPM drops a target without a Swift file of its own, plugin or not.
    echo "enum Anchor {}" >"$package/Sources/API/Anchor.swift"
  done
  sources="$work/$side-plugin/Sources/API"
  cp "$doc" "$sources/openapi.yaml"
  if [ "$side" = cachegen ]; then
    printf '{ "openapi": "openapi.yaml" }\n' >"$sources/API.cachegen.json"
  else
    printf 'generate:\n  - types\n  - client\naccessModifier: public\n' >"$sources/openapi-generator-config.yaml"
  fi
  nice -n 10 swift build --package-path "$work/$side-plugin" >"$work/$side-first.log" 2>&1 \
    || { echo "first build of $side-plugin failed:" >&2; tail -n 20 "$work/$side-first.log" >&2; exit 1; }
  found=$(find "$work/$side-plugin/.build/plugins/outputs" -name '*.swift' | wc -l)
  [ "$found" -gt 0 ] || { echo "no generated Swift found for $side" >&2; exit 1; }
  find "$work/$side-plugin/.build/plugins/outputs" -name '*.swift' -exec cp {} "$work/$side-plain/Sources/API/" \;
  nice -n 10 swift build --package-path "$work/$side-plain" >"$work/$side-plain-first.log" 2>&1 \
    || { echo "first build of $side-plain failed:" >&2; tail -n 20 "$work/$side-plain-first.log" >&2; exit 1; }
done

# One clean build of package $1: "wall cpu peak_MB".
clean_build() {
  local package=$1
  find "$package/.build" -mindepth 1 -maxdepth 1 ! -name checkouts ! -name repositories \
    ! -name workspace-state.json -exec rm -rf {} +
  /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" nice -n 10 swift build --package-path "$package" \
    >"$work/build.log" 2>&1 || { echo "build of $package failed:" >&2; tail -n 20 "$work/build.log" >&2; exit 1; }
  local wall user system peak
  read -r wall user system peak < <(tail -n 1 "$work/time.txt")
  echo "$wall $(python3 -c "print(f'{$user + $system:.1f}')") $((peak / 1024))"
}

echo "document: $doc ($(wc -c <"$doc") bytes)"
echo "uptime before: $(uptime)"
variants="cachegen-plugin cachegen-plain sog-plugin sog-plain"
for run in $(seq "$runs"); do
  for variant in $variants; do
    read -r wall cpu peak <<<"$(clean_build "$work/$variant")"
    echo "$variant $wall $cpu $peak" >>"$work/results.$$"
    echo "run $run $variant: ${cpu} s CPU, ${wall} s wall, peak ${peak} MB"
  done
done
echo "uptime after: $(uptime)"
python3 - "$work/results.$$" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, cpu, peak = line.split()
    rows.setdefault(name, []).append((float(wall), float(cpu), int(peak)))
med = {name: [statistics.median(column) for column in zip(*values)] for name, values in rows.items()}
print("medians (wall s, CPU s, peak MB):")
for name, (wall, cpu, peak) in med.items():
    print(f"  {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, {peak:.0f} MB")
for side in ("cachegen", "sog"):
    plugin, plain = med[side + "-plugin"], med[side + "-plain"]
    print(f"{side} plugin overhead on a clean debug build: +{plugin[1] - plain[1]:.1f} s CPU, +{plugin[0] - plain[0]:.1f} s wall")
PY
rm -f "$work/results.$$"
