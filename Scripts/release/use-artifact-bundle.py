#!/usr/bin/env python3
"""Points cachegen's plugins at a prebuilt tool.

Rewrites a copy of this repository's Package.swift so that both plugins depend on a
`.binaryTarget` named CacheGenTool, an artifact bundle from `artifact-bundle.sh`, instead of the
`cachegen` executable target, which a user's build then no longer compiles. The executable target
stays, for `swift run cachegen`.

Usage: Scripts/release/use-artifact-bundle.py PACKAGE_SWIFT 'path: "cachegen.artifactbundle"'
       Scripts/release/use-artifact-bundle.py PACKAGE_SWIFT 'url: "https://…/cachegen.artifactbundle.zip", checksum: "…"'

The first form (a bundle inside the package) is what `Scripts/check/prebuilt-tool.sh` and
`TOOL=prebuilt Scripts/bench/build-overhead.sh` use; the second is a release's.
"""
import sys

PLUGIN_DEPENDENCY = 'dependencies: ["cachegen"]'
TARGETS = "    targets: [\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().split("\n\n")[2])
    path, location = sys.argv[1], sys.argv[2]
    text = open(path).read()
    if text.count(PLUGIN_DEPENDENCY) != 2 or text.count(TARGETS) != 1:
        sys.exit(f"{path}: expected two plugins with {PLUGIN_DEPENDENCY} and one `targets: [` list")
    text = text.replace(PLUGIN_DEPENDENCY, 'dependencies: ["CacheGenTool"]')
    text = text.replace(TARGETS, f'{TARGETS}        .binaryTarget(name: "CacheGenTool", {location}),\n')
    with open(path, "w") as file:
        file.write(text)


if __name__ == "__main__":
    main()
