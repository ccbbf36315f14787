#!/usr/bin/env bash
# The prebuilt tool a release would ship works: Scripts/release/artifact-bundle.sh packs a
# cachegen that needs no Swift toolchain, and Examples/NewsDemo builds, runs and passes its
# tests with both plugins running it, its build compiling no part of the generator.
#
#   Scripts/check/prebuilt-tool.sh
#
# Works on a copy of the package (Package.swift rewritten by use-artifact-bundle.py, as a
# release's would be) in a temporary folder, removed at the end.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cachegen-prebuilt-tool.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "error: $*" >&2; exit 1; }

package="$work/cachegen"
mkdir -p "$package"
cp -R "$repo/Package.swift" "$repo/Sources" "$repo/Plugins" "$repo/Tests" "$package/"
PACKAGE="$package" SCRATCH="$work/tool-build" "$repo/Scripts/release/artifact-bundle.sh" \
    "$package/cachegen.artifactbundle"
"$repo/Scripts/release/use-artifact-bundle.py" "$package/Package.swift" 'path: "cachegen.artifactbundle"'

tool=$(find "$package/cachegen.artifactbundle" -path '*/bin/cachegen' -type f)
[ "$(echo "$tool" | wc -l)" = 1 ] || fail "expected one cachegen in the bundle, found: $tool"
if ldd "$tool" | grep -E 'libswift|libFoundation|lib_FoundationICU|libdispatch'; then
    fail "the bundle's cachegen links the Swift libraries above dynamically: a user's machine may not have them"
fi
"$tool" --version | grep -q '^cachegen ' || fail "the bundle's cachegen does not run"

# Where it is in the repository, so that its dependency (../..) is the copy and its fixture
# server (../../Tests/Fixtures) is found.
demo="$package/Examples/NewsDemo"
mkdir -p "$demo"
cp -RL "$repo/Examples/NewsDemo/." "$demo/"   # -L: the spec is a symlink into Examples/specs
rm -rf "$demo/.build" "$demo/.swiftpm" "$demo/Package.resolved"

swift build --package-path "$demo" --build-tests 2>&1 | tee "$work/build.log"
if grep -E 'Compiling (CacheGen|cachegen)|Emitting module (CacheGen|cachegen)' "$work/build.log"; then
    fail "NewsDemo's build compiled the generator above, though the plugins have a prebuilt tool"
fi
grep -q 'Generating a cached client from News.cachegen.json' "$work/build.log" \
    || fail "the build plugin did not run the prebuilt tool"
swift run --skip-build --package-path "$demo"
swift test --skip-build --package-path "$demo"
echo "prebuilt tool: the bundle's cachegen is self-contained and NewsDemo builds, runs and tests with it"
