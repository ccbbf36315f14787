#!/usr/bin/env bash
# Type-checks the golden generated files against the built runtime in Swift 5 and
# Swift 6 language modes with complete concurrency checking; any warning fails.
# Then generates every real OpenAPI document in Tests/Fixtures/ThirdParty/openapi/ (each on its own, as
# they share model names) and type-checks the result the same way.
# Run after `swift build` (it reads the runtime module from .build/debug).
set -euo pipefail
cd "$(dirname "$0")/../.."
modules=$(swift build --show-bin-path)/Modules
[ -d "$modules" ] || modules=$(swift build --show-bin-path)
cachegen=$(swift build --show-bin-path)/cachegen
for mode in 5 6; do
  swiftc -typecheck -swift-version "$mode" -strict-concurrency=complete -warnings-as-errors \
    -I "$modules" Tests/GeneratedClientTests/Golden/*/*.swift
  echo "generated code: no warnings in Swift $mode language mode"
done
documents=Tests/Fixtures/ThirdParty/openapi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for document in "$documents"/*.yaml; do
  folder="$out/$(basename "${document%.yaml}")"
  "$cachegen" generate "$document" --output "$folder" 2>/dev/null >/dev/null
  for mode in 5 6; do
    swiftc -typecheck -swift-version "$mode" -strict-concurrency=complete -warnings-as-errors -I "$modules" "$folder"/*.swift
  done
  echo "OpenAPI $(basename "$document"): no warnings in Swift 5 and 6 language modes"
done
# Each construct turned off (`generate`), all of them, and the clients without mocks: what is
# left still type-checks on its own.
for generate in '{ "queries": false }' '{ "streams": false }' '{ "pages": false }' '{ "overloads": false }' \
  '{ "queries": false, "streams": false, "pages": false, "overloads": false }'; do
  spec="$out/constructs/News.cachegen.json"
  mkdir -p "$out/constructs"
  sed "s/\"version\": 1,/\"version\": 1, \"generate\": $generate,/" Examples/specs/News.cachegen.json >"$spec"
  rm -rf "$out/constructs/Generated"
  "$cachegen" generate "$spec" --output "$out/constructs/Generated" --mocks excluded >/dev/null
  for mode in 5 6; do
    swiftc -typecheck -swift-version "$mode" -strict-concurrency=complete -warnings-as-errors -I "$modules" "$out"/constructs/Generated/*.swift
  done
  echo "News with \"generate\": $generate, without mocks: no warnings in Swift 5 and 6 language modes"
done
