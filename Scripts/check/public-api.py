#!/usr/bin/env python3
"""The public API of the runtime and the testing library is the one recorded in PublicAPI.txt.

Reads the symbol graphs in DIR (from `swift package dump-symbol-graph`) of the modules that
are the contract (CachedClientRuntime, CachedClientTesting) and writes one line per public
symbol: the module, the symbol's path and its declaration as Swift prints it. SPI symbols
(`@_spi(Generated)`, what only generated code calls) are not in the graphs, so they may
change freely. Members a type gets from synthesis or a protocol's default implementation
are skipped with `--skip-synthesized-members`.

    Scripts/check/public-api.py DIR            # exit 1, with the difference, when it changed
    Scripts/check/public-api.py DIR --record   # write PublicAPI.txt after an intended change

A removed or changed line breaks users' code: change it on purpose, say so in the release
notes, and record. `Scripts/check/build-docs.sh` runs this after making the graphs.
"""
import difflib
import glob
import json
import os
import sys

MODULES = ["CachedClientRuntime", "CachedClientTesting"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORD = os.path.join(ROOT, "PublicAPI.txt")
HEADER = ("# The public API of CachedClientRuntime and CachedClientTesting, one symbol a line.\n"
          "# Checked by Scripts/check/public-api.py (from Scripts/check/build-docs.sh); after an intended\n"
          "# change, record it with `Scripts/check/public-api.py <symbol graph folder> --record`.\n")


def lines(directory):
    result = set()
    for module in MODULES:
        paths = glob.glob(os.path.join(directory, f"{module}.symbols.json")) + \
            glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))
        for path in paths:
            for symbol in json.load(open(path))["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                declaration = " ".join(declaration.split())
                result.add(f"{module} {'.'.join(symbol['pathComponents'])}: {declaration}")
    return sorted(result)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    current = lines(sys.argv[1])
    if "--record" in sys.argv[2:]:
        with open(RECORD, "w") as file:
            file.write(HEADER + "\n".join(current) + "\n")
        print(f"recorded {len(current)} public symbols in PublicAPI.txt")
        return 0
    recorded = [line for line in open(RECORD).read().splitlines() if line and not line.startswith("#")]
    if recorded == current:
        print(f"public API: {len(current)} symbols, as recorded in PublicAPI.txt")
        return 0
    for line in difflib.unified_diff(recorded, current, "PublicAPI.txt", "the build", lineterm="", n=0):
        print(line)
    print("error: the public API changed; if that is intended, record it with "
          f"Scripts/check/public-api.py {sys.argv[1]} --record and say so in the release notes")
    return 1


if __name__ == "__main__":
    sys.exit(main())
