#!/usr/bin/env bash
# Type-checks the golden generated files against the built runtime in Swift 5 and
# Swift 6 language modes with complete concurrency checking; any warning fails.
# Run after `swift build` (it reads the runtime module from .build/debug).
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(swift build --show-bin-path)/Modules
[ -d "$modules" ] || modules=$(swift build --show-bin-path)
for mode in 5 6; do
  swiftc -typecheck -swift-version "$mode" -strict-concurrency=complete -warnings-as-errors \
    -I "$modules" Tests/GeneratedClientTests/Golden/*/*.swift
  echo "generated code: no warnings in Swift $mode language mode"
done
