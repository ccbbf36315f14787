#!/usr/bin/env bash
# Coverage-guided fuzzing of cachegen's readers with libFuzzer (issue 17; see Fuzz/README.md).
#
#   Scripts/fuzz.sh --list                     the targets, one a line
#   Scripts/fuzz.sh TARGET SECONDS [ARGS...]   build (cached) and fuzz TARGET for SECONDS;
#                                              ARGS go to libFuzzer (e.g. -runs=1000000)
#   Scripts/fuzz.sh --build                    build every target, run none
#
# Every run uses -timeout=1 -rss_limit_mb=512 -max_len=65536 (issue 17: no input under 64 KB
# takes a second, memory under 512 MB). Exits non-zero on a finding (crash, broken invariant,
# leak, timeout, out of memory); the input is kept in Fuzz/Findings/TARGET/. The growing
# corpus lives in Fuzz/.build/corpus/TARGET (not committed); the checked-in seeds and the
# repository's examples, specs and documents are read-only seed folders, as are
# Tests/Fixtures/ThirdParty (real OpenAPI documents, the YAML test suite).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

targets="json-reader yaml-reader spec-pipeline openapi cache-file response-headers multipart"

product() {
  case "$1" in
    json-reader) echo FuzzJSONReader ;;
    yaml-reader) echo FuzzYAMLReader ;;
    spec-pipeline) echo FuzzSpecPipeline ;;
    openapi) echo FuzzOpenAPI ;;
    cache-file) echo FuzzCacheFile ;;
    response-headers) echo FuzzResponseHeaders ;;
    multipart) echo FuzzMultipart ;;
    *) return 1 ;;
  esac
}

# Release build with AddressSanitizer and libFuzzer's coverage; -enable-testing lets the
# targets `@testable import` the product's internal readers. Cached by SwiftPM in Fuzz/.build.
build() {
  local log status=0
  log=$(swift build --package-path Fuzz -c release --product "$1" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing 2>&1) || status=$?
  # gold's note about an ASan symbol is noise; progress lines too.
  printf '%s\n' "$log" | grep -v -e "Cannot export local symbol '__asan_extra_spill_area'" -e '^\[' || true
  return "$status"
}

# Seed folders for a target: checked-in seeds first, then what the repository already holds
# (Tests/Fixtures/ThirdParty: real OpenAPI documents and the YAML test suite).
seeds() {
  local third=Tests/Fixtures/ThirdParty
  case "$1" in
    json-reader)
      echo Fuzz/Seeds/JSON Examples/specs Tests/CacheGenCoreTests/Specs Tests/CacheGenCoreTests/OpenAPI/Documents \
        Tests/CacheGenYAMLTests/OpenAPIFixtures ;;
    yaml-reader)
      echo Fuzz/Seeds/YAML Fuzz/Seeds/OpenAPI Examples/specs "$third/openapi"
      # The suite's inputs only (each case folder also holds expected outputs).
      local suite=Fuzz/.build/seeds/yaml-test-suite
      if [ ! -d "$suite" ]; then
        mkdir -p "$suite"
        for file in "$third"/yaml-test-suite/*/in.yaml "$third"/yaml-test-suite/*/*/in.yaml; do
          [ -f "$file" ] || continue
          case_name=${file#"$third"/yaml-test-suite/}
          cp "$file" "$suite/${case_name//\//_}"
        done
      fi
      echo "$suite" ;;
    spec-pipeline)
      echo Fuzz/Seeds/OpenAPI Examples/specs Tests/CacheGenCoreTests/Specs Tests/CacheGenCoreTests/OpenAPI/Documents \
        Tests/CacheGenYAMLTests/OpenAPIFixtures "$third/openapi" ;;
    openapi)
      echo Fuzz/Seeds/OpenAPI Tests/CacheGenYAMLTests/OpenAPIFixtures "$third/openapi" ;;
    cache-file) echo Fuzz/Seeds/CacheFile ;;
    response-headers) echo Fuzz/Seeds/ResponseHeaders ;;
    multipart) echo Fuzz/Seeds/Multipart ;;
  esac
}

dictionary() {
  case "$1" in
    json-reader) echo Fuzz/Dictionaries/json.dict ;;
    yaml-reader) echo Fuzz/Dictionaries/yaml.dict ;;
    spec-pipeline | openapi) echo Fuzz/Dictionaries/openapi.dict ;;
    response-headers | multipart) echo Fuzz/Dictionaries/http.dict ;;
  esac
}

case "${1:-}" in
  --list)
    for target in $targets; do echo "$target"; done
    exit 0 ;;
  --build)
    for target in $targets; do build "$(product "$target")"; done
    exit 0 ;;
  -h | --help)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  "")
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac

target=$1
seconds=${2:?"usage: Scripts/fuzz.sh TARGET SECONDS [LIBFUZZER-ARGS...]"}
shift 2
name=$(product "$target") || { echo "error: unknown target '$target'; Scripts/fuzz.sh --list names them" >&2; exit 2; }
build "$name"
binary=$(swift build --package-path Fuzz -c release --show-bin-path)/$name

corpus=Fuzz/.build/corpus/$target
findings=Fuzz/Findings/$target
mkdir -p "$corpus" "$findings"
dict=$(dictionary "$target")
read -r -a seed_folders <<<"$(seeds "$target" | tr '\n' ' ')"

# The Swift runtime's crash handler would fight AddressSanitizer over the crashed process;
# libFuzzer's own report names the input. Leaks are checked, except what Swift globals
# hold from their one-time initialization (see Fuzz/lsan.supp). AddressSanitizer keeps
# freed memory in quarantine to catch use after free, 256 MB by default, which -rss_limit_mb
# counts: with it the spec pipeline's process passed 512 MB while its live heap held 28 MB
# (1.2 million small freed blocks quarantined, each with its redzones and shadow). 64 MB
# still holds the most recent frees for use-after-free reports, and leaves the
# limit to the target's own memory.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/Fuzz/lsan.supp:print_suppressions=0}
# libFuzzer's -timeout is wall-clock time: on a starved machine (a niced run among busy
# builds, a loaded CI runner) an input that takes milliseconds can be stopped at one second.
# A timeout counts as a finding only when its input also times out when replayed alone
# (three tries, the same one-second limit); otherwise it is reported as starvation, kept as
# Fuzz/Findings/TARGET/starved-*, and fuzzing resumes for the time left.
timeout_exit=70 # libFuzzer's -timeout_exitcode
reproduces_timeout() {
  local try
  for try in 1 2 3; do
    if "$binary" -timeout=1 -rss_limit_mb=512 "$1" >/dev/null 2>&1; then return 1; fi
  done
  return 0
}

deadline=$((SECONDS + seconds))
while :; do
  status=0
  "$binary" -timeout=1 -rss_limit_mb=512 -max_len=65536 -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$findings/" ${dict:+-dict="$dict"} "$@" "$corpus" "${seed_folders[@]}" || status=$?
  [ "$status" -eq "$timeout_exit" ] || break
  input=$(ls -t "$findings"/timeout-* 2>/dev/null | head -n 1)
  [ -n "$input" ] && ! reproduces_timeout "$input" || break
  starved=$findings/starved-${input##*/timeout-}
  mv "$input" "$starved"
  echo "warning: $target: a wall-clock timeout that does not reproduce (the input replays under a second, so the machine was starved); kept as $starved" >&2
  status=0
  seconds=$((deadline - SECONDS))
  [ "$seconds" -gt 5 ] || break
  echo "warning: $target: fuzzing resumes for the remaining $seconds s" >&2
done
if [ "$status" -ne 0 ]; then
  echo "error: $target found a problem (exit $status); the input is in $findings/" >&2
  ls -t "$findings" | head -n 3 >&2
fi
exit "$status"
