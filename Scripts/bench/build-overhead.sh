#!/usr/bin/env bash
# Build overhead of the cachegen plugin (benchmark item 7): a clean debug build of
# Examples/NewsDemo as it is (the plugin builds cachegen, then generates the client),
# beside a clean debug build of the same package with the generated Swift checked in and
# no plugin. Each build runs in a fresh temporary copy with its own scratch path, so
# nothing is shared between them or with the repository's own .build.
#
# Usage: Scripts/bench/build-overhead.sh [RUNS]   (default 1; runs alternate the order)
#        SOURCE=DIR Scripts/bench/build-overhead.sh   another checkout of this repository (an
#        older commit, say), measured the same way; `Scripts/bench/build-cost.sh targets` uses it
#        TOOL=prebuilt Scripts/bench/build-overhead.sh   the plugins run a prebuilt cachegen, an
#        artifact bundle from Scripts/release/artifact-bundle.sh (built first, not timed), as a
#        release's `.binaryTarget` would give them, instead of compiling the tool
# Prints each build's wall time, the medians and the difference. Not a test: it never fails
# because of a time. Needs network access to nothing: NewsDemo depends only on this repo.
set -euo pipefail

repo="${SOURCE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
runs="${1:-1}"
work="$(mktemp -d "${TMPDIR:-/tmp}/cachegen-build-overhead.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# A snapshot of the package, so that both variants build the same sources even while the
# working tree changes.
snapshot="$work/cachegen"
mkdir -p "$snapshot"
cp -R "$repo/Package.swift" "$repo/Sources" "$repo/Plugins" "$repo/Tests" "$snapshot/"
if [ "${TOOL:-source}" = prebuilt ]; then
    echo "Building the prebuilt tool (not timed)..." >&2
    PACKAGE="$snapshot" SCRATCH="$work/tool-build" \
        "$(dirname "${BASH_SOURCE[0]}")/../release/artifact-bundle.sh" "$snapshot/cachegen.artifactbundle" >&2
    "$(dirname "${BASH_SOURCE[0]}")/../release/use-artifact-bundle.py" "$snapshot/Package.swift" \
        'path: "cachegen.artifactbundle"'
fi

# Removes the one match of Python regex $2 from file $1; fails unless there is exactly one ($3
# names it in the message), or with $4 = optional, none.
remove_once() {
    python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import re, sys
path, pattern, what, optional = sys.argv[1:5]
text = open(path).read()
text, count = re.subn(pattern, '', text)
if count != 1 and not (count == 0 and optional):
    sys.exit(f"expected one {what} in {path}, found {count}")
open(path, "w").write(text)
PY
}

# Copies NewsDemo to $1, pointing its dependency at the snapshot.
copy_demo() {
    mkdir -p "$1"
    cp -RL "$repo/Examples/NewsDemo/." "$1/"   # -L: the spec is a symlink into Examples/specs
    rm -rf "$1/.build" "$1"/.build-* "$1/.swiftpm" "$1/Package.resolved"
    sed -i.bak "s|path: \"../..\"|path: \"$snapshot\"|" "$1/Package.swift" && rm "$1/Package.swift.bak"
    grep -q "path: \"$snapshot\"" "$1/Package.swift" || { echo "could not point $1/Package.swift at $snapshot" >&2; exit 1; }
    # The app alone: its test target (which gets the mocks) is not what an app's build pays for.
    # (Before issue 28 the demo had none: the mocks were in the app's target.)
    remove_once "$1/Package.swift" ',\s*(//[^\n]*\n\s*)*\.testTarget\((?:[^()]|\([^()]*\))*\)' "test target" optional
    rm -rf "$1/Tests"
}

# Prints the seconds a clean debug build of package $1 takes (scratch path inside it).
time_build() {
    local package="$1" log="$1.log" start end
    rm -rf "$package/.build"
    start=$(date +%s.%N)
    if ! swift build --package-path "$package" --scratch-path "$package/.build" >"$log" 2>&1; then
        echo "build of $package failed:" >&2
        cat "$log" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.1f}')"
}

# The no-plugin variant needs the generated file; a first plugin build in a scratch copy makes it.
plugin="$work/with-plugin"
plain="$work/no-plugin"
copy_demo "$plugin"
copy_demo "$plain"

echo "Preparing the checked-in variant (one plugin build, not timed)..." >&2
swift build --package-path "$plugin" --scratch-path "$plugin/.build" >"$work/prepare.log" 2>&1 \
    || { cat "$work/prepare.log" >&2; exit 1; }
generated="$(find "$plugin/.build" -path '*plugins/outputs*' -name 'News+Models0.cachegen.swift' | head -n 1)"
[ -n "$generated" ] || { echo "no generated News+Models0.cachegen.swift found under $plugin/.build" >&2; exit 1; }
cp "$(dirname "$generated")"/News+*.cachegen.swift "$plain/Sources/NewsDemo/"
rm "$plain/Sources/NewsDemo/News.cachegen.json"
remove_once "$plain/Package.swift" ',\s*plugins:\s*\[[^\]]*\]' "plugins: line"

with=()
without=()
for run in $(seq 1 "$runs"); do
    if (( run % 2 == 1 )); then
        with+=("$(time_build "$plugin")")
        without+=("$(time_build "$plain")")
    else
        without+=("$(time_build "$plain")")
        with+=("$(time_build "$plugin")")
    fi
    echo "run $run: with plugin ${with[-1]} s, generated file checked in ${without[-1]} s" >&2
done

python3 - "${TOOL:-source}" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')" "${#with[@]}" "${with[@]}" "${without[@]}" <<'PY'
import statistics, sys
tool, cores, load, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
values = [float(v) for v in sys.argv[5:]]
with_plugin, without = values[:count], values[count:]
a, b = statistics.median(with_plugin), statistics.median(without)
print(f"Clean debug build of Examples/NewsDemo, {cores} cores, load average before the last build: {load}")
tool = "a prebuilt cachegen" if tool == "prebuilt" else "cachegen compiled from source"
rows = [(f"with the plugin ({tool})", f"{a:6.1f} s  (runs: {', '.join(f'{v:.1f}' for v in with_plugin)})"),
        ("generated Swift checked in", f"{b:6.1f} s  (runs: {', '.join(f'{v:.1f}' for v in without)})"),
        ("the plugin adds", f"{a - b:6.1f} s  (issue 28: at most +5 s)")]
width = max(len(label) for label, _ in rows) + 2
for label, figure in rows:
    print(f"  {label + ':':<{width}}{figure}")
PY
