#!/usr/bin/env bash
# Packs cachegen as a SwiftPM artifact bundle: the prebuilt tool a `.binaryTarget` would give
# the plugins, so that a user's first build runs cachegen instead of compiling it (issue 28:
# compiling the tool is what the plugin adds to a clean build).
#
#   Scripts/release/artifact-bundle.sh [BUNDLE]     (default .build/cachegen.artifactbundle)
#   PACKAGE=DIR SCRATCH=DIR Scripts/release/artifact-bundle.sh BUNDLE   another checkout, built in DIR
#
# Builds cachegen in release with the Swift runtime and Foundation linked in statically
# (`--static-swift-stdlib`: the binary needs no toolchain on the user's machine), stripped,
# and adds it to BUNDLE as the variant for this machine's target triple; a variant already
# there for the triple is replaced, others are kept, so a release runs this once per platform
# on the same bundle. Then prints the zip a release would upload and its checksum, the two
# things the release's Package.swift names:
#
#   .binaryTarget(name: "CacheGenTool", url: "https://…/cachegen.artifactbundle.zip", checksum: "…")
#
# with the plugins depending on "CacheGenTool" instead of "cachegen" (use-artifact-bundle.py
# makes that change). `Scripts/check/prebuilt-tool.sh` checks the bundle works (CI runs it);
# `TOOL=prebuilt Scripts/bench/build-overhead.sh` measures what it saves a user's build.
#
# Linux only. The macOS variant is built on a Mac, `swift build -c release --product cachegen
# --arch arm64 --arch x86_64`, and added to info.json by hand with the supported triples
# arm64-apple-macosx and x86_64-apple-macosx; this Linux machine cannot build or test it.
set -euo pipefail
[ "$(uname -s)" = Linux ] || { echo "artifact-bundle.sh builds the Linux variant only (see its header for macOS)" >&2; exit 2; }
repo=${PACKAGE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
bundle=${1:-$repo/.build/cachegen.artifactbundle}
scratch=${SCRATCH:-$repo/.build/artifact-bundle}
mkdir -p "$(dirname "$scratch")"

swift build --package-path "$repo" --scratch-path "$scratch" -c release --product cachegen \
    --static-swift-stdlib >"$scratch.log" 2>&1 || { cat "$scratch.log" >&2; exit 1; }
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["unversionedTriple"])')
version=$("$scratch/release/cachegen" --version | awk '{print $2}')

variant="cachegen-$version-$triple/bin/cachegen"
mkdir -p "$bundle/$(dirname "$variant")"
cp "$scratch/release/cachegen" "$bundle/$variant"
strip "$bundle/$variant"

python3 - "$bundle/info.json" "$version" "$variant" "$triple" <<'PY'
import json, os, sys
path, version, variant, triple = sys.argv[1:5]
info = json.load(open(path)) if os.path.exists(path) else {"schemaVersion": "1.0", "artifacts": {}}
artifact = info["artifacts"].setdefault("cachegen", {"type": "executable", "variants": []})
artifact["version"] = version
artifact["variants"] = [v for v in artifact["variants"] if triple not in v["supportedTriples"]]
artifact["variants"].append({"path": variant, "supportedTriples": [triple]})
with open(path, "w") as file:
    json.dump(info, file, indent=2)
    file.write("\n")
PY

(cd "$(dirname "$bundle")" && rm -f "$(basename "$bundle").zip" && zip -qry "$(basename "$bundle").zip" "$(basename "$bundle")")
echo "bundle:   $bundle ($triple, cachegen $version, $(du -h "$bundle/$variant" | cut -f1))"
echo "zip:      $bundle.zip ($(du -h "$bundle.zip" | cut -f1))"
echo "checksum: $(swift package --package-path "$repo" compute-checksum "$bundle.zip")"
