#!/usr/bin/env bash
# Builds the DocC documentation of CachedClientRuntime with the toolchain's own `docc`, from
# symbol graphs (no package dependency), and fails on any warning. Also checks that every
# public symbol has a summary and that every article's Swift code is in a compiled file.
#
#   Scripts/check/build-docs.sh [OUTPUT]      # default .build/docs/CachedClientRuntime.doccarchive
#
# Open the archive in Xcode, or serve it: it is built for static hosting
# (`python3 -m http.server -d .build/docs/CachedClientRuntime.doccarchive`, then
# /documentation/cachedclientruntime).
set -euo pipefail
cd "$(dirname "$0")/../.."
output="${1:-.build/docs/CachedClientRuntime.doccarchive}"
log="$(mktemp)"
graphs="$(mktemp -d)"
trap 'rm -rf "$log" "$graphs"' EXIT

docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
if [ ! -x "$docc" ]; then
  docc="$(command -v docc || xcrun --find docc)"
fi

echo "== symbol graphs"
# Emitted while compiling, in a build of its own (the flags would otherwise rebuild .build):
# CachedClientRuntime re-exports the runtime's layers (one target each), and only a graph made
# at compile time holds what a module re-exports (`swift package dump-symbol-graph` leaves it
# out), so that the catalog documents everything `import CachedClientRuntime` gives an app.
# The graphs live in that build's folder: a module's graph is rewritten whenever it is compiled,
# so after a build they are the sources' own.
symbolgraphs="$PWD/.build/docs-build/symbolgraphs"
mkdir -p "$symbolgraphs"
swift build --scratch-path .build/docs-build --target CachedClientTesting \
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$symbolgraphs" \
  -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
  -Xswiftc -symbol-graph-skip-synthesized-members >"$log" 2>&1 || { cat "$log"; exit 1; }
cp "$symbolgraphs"/CachedClientRuntime.symbols.json "$symbolgraphs"/CachedClientRuntime@*.symbols.json "$graphs/"

echo "== every public symbol has a summary"
python3 Scripts/check/doc-summaries.py "$symbolgraphs" CachedClientRuntime CachedClientTesting

echo "== the public API is the one recorded in PublicAPI.txt"
python3 Scripts/check/public-api.py "$symbolgraphs"

echo "== every article's Swift code is in a compiled file"
python3 Scripts/check/doc-snippets.py

echo "== docc convert"
rm -rf "$output"
mkdir -p "$(dirname "$output")"
"$docc" convert Sources/CachedClientRuntime/CachedClientRuntime.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name CachedClientRuntime \
  --fallback-bundle-identifier com.cachegen.CachedClientRuntime \
  --transform-for-static-hosting --hosting-base-path "" \
  --warnings-as-errors \
  --output-path "$output" >"$log" 2>&1 || { cat "$log"; echo "error: docc failed"; exit 1; }
warnings="$(grep -c -E '(warning|error):' "$log" || true)"
if [ "$warnings" != "0" ]; then
  cat "$log"
  echo "error: docc reported $warnings warnings"
  exit 1
fi
echo "docs: 0 warnings; $(find "$output/data/documentation" -name '*.json' | wc -l) pages in $output"
