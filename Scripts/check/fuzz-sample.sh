#!/usr/bin/env bash
# Compiles a sample of fuzzed specs that the generator accepted: GeneratorFuzzTests writes
# up to CACHEGEN_FUZZ_SAMPLE_COUNT (default 5) accepted mutants whose output differs from
# the original spec's into a temporary folder, and each one's generated files are type-checked together
# against the built runtime in Swift 6 mode with complete concurrency checking. An accepted
# spec whose output does not compile, or compiles with warnings, is a generator bug: the
# script prints the spec and the compiler's messages and exits 1.
#
#   Scripts/check/fuzz-sample.sh                                # 5 mutants
#   CACHEGEN_FUZZ_SAMPLE_COUNT=200 Scripts/check/fuzz-sample.sh  # more
#
# SCRATCH_PATH (default .build) chooses the build folder, for parallel checkouts.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${SCRATCH_PATH:-.build}
sample=$(mktemp -d)
trap 'rm -rf "$sample"' EXIT

# The tests' result is not this script's business (they have their own run); the sample
# is written even when a case fails, and a crash leaves no sample, which is caught below.
CACHEGEN_FUZZ_SAMPLE_DIR="$sample" swift test --scratch-path "$scratch" --filter GeneratorFuzzTests \
  >"$sample/test.log" 2>&1 || echo "note: GeneratorFuzzTests failed; see its own run (continuing with the sample)"

swift build --scratch-path "$scratch" --target CachedClientRuntime >/dev/null
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
modules=$bin/Modules
[ -d "$modules" ] || modules=$bin

shopt -s nullglob
sets=("$sample"/fuzz-*/)
if [ ${#sets[@]} -eq 0 ]; then
  echo "error: the fuzz test wrote no accepted mutants to compile" >&2
  tail -n 20 "$sample/test.log" >&2
  exit 1
fi

failed=0
for set in "${sets[@]}"; do
  spec=${set%/}.cachegen.json
  # Nested types slow the type checker down exponentially; a limit turns a hang into a failure.
  if messages=$(timeout 120 swiftc -typecheck -swift-version 6 -strict-concurrency=complete -warnings-as-errors \
    -I "$modules" "$set"*.swift 2>&1); then
    echo "ok      $(basename "$spec")"
  else
    failed=$((failed + 1))
    echo "FAILED  $(basename "$spec")"
    echo "--- spec"
    cat "$spec"
    echo "--- compiler"
    echo "$messages" | head -n 40
    echo "---"
  fi
done
echo "${#sets[@]} accepted mutant(s) type-checked, $failed failed"
[ "$failed" -eq 0 ]
