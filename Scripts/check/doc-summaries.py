#!/usr/bin/env python3
"""Every public symbol of the documented modules has a doc comment with a summary.

Reads the symbol graphs in DIR (from `swift package dump-symbol-graph`) for the modules
named, and prints each public symbol without one as `module: kind name (file:line)`.
Members a type gets from a protocol's default implementation or synthesis are skipped
(they have the protocol's documentation); SPI symbols are not in the graphs.
Exit 1 when any is missing.
"""
import glob
import json
import os
import sys


def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    missing = []
    count = 0
    for module in modules:
        for path in sorted(glob.glob(os.path.join(directory, f"{module}.symbols.json"))
                           + glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                # No location: the compiler made it (a `Codable` or `RawRepresentable` initializer); a
                # graph made while compiling lists those, and there is nothing in the source to document.
                if "location" not in symbol:
                    continue
                count += 1
                lines = (symbol.get("docComment") or {}).get("lines") or []
                summary = next((line["text"].strip() for line in lines if line["text"].strip()), "")
                if not summary:
                    location = symbol.get("location", {})
                    where = location.get("uri", "?").split("/Sources/")[-1]
                    line = location.get("position", {}).get("line", -1) + 1
                    title = ".".join(symbol["pathComponents"])
                    missing.append(f"{module}: {symbol['kind']['displayName']} {title} ({where}:{line})")
    for line in missing:
        print(f"missing summary: {line}")
    print(f"{count} public symbols, {len(missing)} without a summary")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
