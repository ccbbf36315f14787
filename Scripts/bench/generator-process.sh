#!/usr/bin/env bash
# Whole-process time of `cachegen generate` on the synthetic 1,000-endpoint spec
# (benchmark item 1, second half), release build. Each run writes into an empty folder,
# so every run parses, validates, renders and writes the file.
#
# Usage: Scripts/bench/generator-process.sh [RUNS]   (default 30)
# Set CACHEGEN=/path/to/cachegen to time a binary you built; otherwise a release build is
# made in .build-bench (git-ignored), away from the repository's .build.
# Prints the median, minimum and mean wall time, and hyperfine's figures too when it is
# installed. Not a test: it never fails because of a time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-30}"
work="$(mktemp -d "${TMPDIR:-/tmp}/cachegen-generator-process.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [ -z "${CACHEGEN:-}" ]; then
    echo "Building cachegen (release) in .build-bench..." >&2
    swift build --package-path "$repo" --scratch-path "$repo/.build-bench" -c release --product cachegen >&2
    CACHEGEN="$(swift build --package-path "$repo" --scratch-path "$repo/.build-bench" -c release --show-bin-path)/cachegen"
fi

spec="$work/Large.cachegen.json"
python3 "$repo/Scripts/fixtures/make-large-spec.py" "$spec"
"$CACHEGEN" validate "$spec" >/dev/null

python3 - "$CACHEGEN" "$spec" "$work/out" "$runs" <<'PY'
import os, shutil, statistics, subprocess, sys, time
tool, spec, out, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
times = []
for run in range(runs + 2):
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([tool, "generate", spec, "--output", out], check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if run >= 2:  # two warm-up runs
        times.append(elapsed)
size = sum(os.path.getsize(os.path.join(out, name)) for name in os.listdir(out) if name.endswith(".swift"))
load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
print(f"cachegen generate, 1,000 endpoints / 330 models -> {size / 1e6:.1f} MB of Swift, {runs} runs, load {' '.join(load)}")
print(f"  median {statistics.median(times) * 1000:7.1f} ms   min {min(times) * 1000:7.1f} ms   "
      f"mean {statistics.mean(times) * 1000:7.1f} ms   (target: < 250 ms)")
PY

if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 2 --runs "$runs" --prepare "rm -rf '$work/out'" \
        "'$CACHEGEN' generate '$spec' --output '$work/out'"
fi
