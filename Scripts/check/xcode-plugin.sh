#!/usr/bin/env bash
# Type-checks CacheGenPlugin's Xcode part (inside `#if canImport(XcodeProjectPlugin)`) on a
# machine without Xcode, against Scripts/check/xcode-plugin-stub: a model of Xcode's module, so this
# catches a mistake in our code, not a change in Xcode's API. Runs in a second or two.
set -euo pipefail
cd "$(dirname "$0")/../.."
api="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/pm/PluginAPI"
stub="$(mktemp -d)"
trap 'rm -rf "$stub"' EXIT
swiftc -emit-module -parse-as-library -module-name XcodeProjectPlugin -package-description-version 6.0.0 \
  -I "$api" Scripts/check/xcode-plugin-stub/XcodeProjectPlugin.swift -emit-module-path "$stub/XcodeProjectPlugin.swiftmodule"
swiftc -typecheck -parse-as-library -swift-version 6 -package-description-version 6.0.0 -I "$api" -I "$stub" \
  Plugins/CacheGenPlugin/plugin.swift Plugins/PluginsShared/*.swift
echo "CacheGenPlugin's Xcode part type-checks against the XcodeProjectPlugin stub"
