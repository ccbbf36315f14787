#!/bin/sh
# Times YAMLReader (release build) on a large synthetic OpenAPI document and prints MB/s,
# beside JSONReader on the same document as JSON. A measurement, not a test: nothing fails
# because of a number. The bench package is made in a temporary folder so that the product
# gains nothing.
#
# Usage: Scripts/bench/yaml-read.sh [OPERATIONS]   (default 6,000 operations, about 8 MB)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${TMPDIR:-/tmp}/cachegen-yaml-read-bench
mkdir -p "$WORK/Sources/YAMLReadBench"
python3 "$ROOT/Scripts/fixtures/make-large-openapi-yaml.py" "$WORK/large.yaml" "${1:-6000}"
python3 -c 'import json, sys, yaml
json.dump(yaml.load(open(sys.argv[1]), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), open(sys.argv[2], "w"), indent=1)' \
    "$WORK/large.yaml" "$WORK/large.json"
cat > "$WORK/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "yaml-read-bench",
    dependencies: [.package(name: "cachegen", path: "$ROOT")],
    targets: [.executableTarget(name: "YAMLReadBench", dependencies: [.product(name: "_CacheGenCore", package: "cachegen")])]
)
SWIFT
cat > "$WORK/Sources/YAMLReadBench/main.swift" <<'SWIFT'
import CacheGenCore
import CacheGenReading
import CacheGenYAML
import Foundation

/// The CPU time this thread has used, in seconds: unlike wall time, it does not grow when
/// other processes share the cores.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Reads each file ten times and prints the best wall and CPU times as MB/s. The trees are
/// kept until all reads are done, so freeing them is not timed.
func measure(_ label: String, _ path: String, _ read: (Data, String) throws -> JSONNode) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var bestWall = Double.infinity
    var bestCPU = Double.infinity
    var trees: [JSONNode] = []
    for _ in 0..<10 {
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = threadCPUTime()
        let node = try read(data, path)
        let cpu = threadCPUTime() - cpuStart
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        precondition(node.members != nil)
        trees.append(node)
        bestWall = min(bestWall, wall)
        bestCPU = min(bestCPU, cpu)
    }
    let megabytes = Double(data.count) / 1_000_000
    print(
        String(
            format: "%@: %.1f MB; best of 10: %.1f ms wall (%.0f MB/s), %.1f ms CPU (%.0f MB/s)", label, megabytes,
            bestWall * 1000, megabytes / bestWall, bestCPU * 1000, megabytes / bestCPU))
}

try measure("YAMLReader", CommandLine.arguments[1]) { try YAMLReader.parse($0, file: $1) }
try measure("JSONReader (same document as JSON)", CommandLine.arguments[2]) { try JSONReader.parse($0, file: $1) }
SWIFT
swift build -c release --package-path "$WORK" 2>&1 | tail -1
"$WORK/.build/release/YAMLReadBench" "$WORK/large.yaml" "$WORK/large.json"
