#!/usr/bin/env python3
"""Where the compiler spends its time on a generated client, per model and per endpoint.

Reads the `-stats-output-dir` of a debug build of the generated target built one frontend job
a file (`-disable-batch-mode`), with the generated sources beside it, and prints for each kind of
shard (models, repositories, mocks) the lines, compile CPU seconds, LLVM IR functions and
instructions, each per model or per endpoint; then the emit-module job. With the build log of
`-Xfrontend -debug-time-function-bodies`, also the function bodies that took longest to
type-check, summed over the models or endpoints they belong to.

Usage: Scripts/bench/compile-stats.py STATS_DIR SOURCES_DIR MODELS ENDPOINTS [BUILD_LOG]

A target for it (all flags in one place):
  .target(name: "Generated", dependencies: [...], swiftSettings: [.unsafeFlags([
      "-Xfrontend", "-debug-time-function-bodies", "-Xfrontend", "-warn-long-expression-type-checking=50",
      "-driver-time-compilation", "-disable-batch-mode", "-stats-output-dir", "/tmp/stats"])])
"""
import glob
import json
import os
import re
import sys
from collections import defaultdict


def main():
    stats_dir, sources, models, endpoints = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    kinds = defaultdict(lambda: {"files": 0, "lines": 0, "cpu": 0.0, "functions": 0, "instructions": 0})
    module_cpu = 0.0
    for path in glob.glob(os.path.join(stats_dir, "*.json")):
        with open(path) as handle:
            stats = json.load(handle)
        cpu = sum(value for key, value in stats.items()
                  if key.startswith("time.swift-frontend.") and (key.endswith(".user") or key.endswith(".sys")))
        match = re.search(r"-Generated-(.+?)\.swift-x86_64", os.path.basename(path))
        if not match:
            module_cpu += cpu   # the emit-module job
            continue
        shard = match.group(1)
        kind = next((k for k in ("Models", "Repositories", "Mocks") if f"_{k}" in shard or f"+{k}" in shard), "other")
        source = os.path.join(sources, shard.replace("_", "+", 1) + ".swift")
        entry = kinds[kind]
        entry["files"] += 1
        entry["cpu"] += cpu
        entry["functions"] += stats.get("IRModule.NumIRFunctions", 0)
        entry["instructions"] += stats.get("IRModule.NumIRInsts", 0)
        if os.path.exists(source):
            with open(source) as handle:
                entry["lines"] += sum(1 for _ in handle)
    total = module_cpu + sum(entry["cpu"] for entry in kinds.values())
    print(f"compile CPU {total:.1f} s in all; emit-module job {module_cpu:.1f} s")
    for kind, count, unit in (("Models", models, "model"), ("Repositories", endpoints, "endpoint"), ("Mocks", endpoints, "endpoint")):
        entry = kinds[kind]
        if not entry["files"]:
            continue
        print(f"{kind:13} {entry['files']:2} files {entry['lines']:6} lines {entry['cpu']:6.1f} s CPU | per {unit}: "
              f"{entry['lines'] / count:5.1f} lines, {1000 * entry['cpu'] / count:5.1f} ms CPU, "
              f"{entry['functions'] / count:5.1f} IR functions, {entry['instructions'] / count:6.0f} IR instructions")
    if len(sys.argv) > 5:
        bodies = defaultdict(lambda: [0.0, 0])
        with open(sys.argv[5]) as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 3 or not parts[0].endswith("ms"):
                    continue
                name = re.sub(r"\d+", "#", parts[2].split("@")[0])
                bodies[name][0] += float(parts[0][:-2])
                bodies[name][1] += 1
        print("type-checking function bodies, the ten costliest kinds (ms in all, how many):")
        for name, (milliseconds, count) in sorted(bodies.items(), key=lambda item: -item[1][0])[:10]:
            print(f"  {milliseconds:8.1f} ms {count:5}  {name[:110]}")


if __name__ == "__main__":
    main()
