// A stand-in for Xcode's XcodeProjectPlugin module, which exists only inside Xcode: just the
// declarations CacheGenPlugin uses, with the types and signatures of Xcode 16's module (as
// swift-openapi-generator's plugin uses them too). Scripts/check/xcode-plugin.sh type-checks
// the plugin's `#if canImport(XcodeProjectPlugin)` part against it on Linux. It proves the code
// matches this model of the API, not Xcode itself: a change there shows only in Xcode.
import Foundation
import PackagePlugin

public protocol XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command]
}

public struct XcodePluginContext {
    public var pluginWorkDirectoryURL: URL { fatalError("stub") }
    public func tool(named name: String) throws -> PluginContext.Tool { fatalError("stub") }
}

public struct XcodeTarget {
    public var displayName: String { fatalError("stub") }
    public var inputFiles: FileList { fatalError("stub") }
}
