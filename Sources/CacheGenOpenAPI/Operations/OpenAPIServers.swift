#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// An operation's own `servers` (or its path item's): the endpoint is sent there rather than to
/// the client's base URL (Box's uploads go to https://upload.box.com/api/2.0).
package enum OpenAPIServers {
    /// The server `operation` is sent to when it is not the document's: its own `servers`, else
    /// its path item's (`pathServers`), the first of them, its variables taking their defaults
    /// and a relative URL resolved against the document's server; `nil` for the client's base
    /// URL. What cannot be chosen faithfully is a warning naming what was chosen.
    package static func server(
        of operation: JSONNode, pathServers: JSONMember?, documentServer: String?, what: String, context: inout OpenAPIOperationContext
    ) -> String? {
        guard let member = operation["servers"] ?? pathServers, let servers = member.value.elements, let first = servers.first
        else { return nil }
        let written = servers.compactMap { $0["url"]?.value.stringValue }.map(Self.trimmedSlash)
        // Servers that include the document's own: the client's base URL serves the operation.
        if let document = documentServer, written.contains(Self.trimmedSlash(document)) { return nil }
        guard let urlMember = first["url"], let url = urlMember.value.stringValue else {
            context.warn("the first server of \(what) has no \"url\", so it is sent to the client's base URL", at: member.keyLocation)
            return nil
        }
        guard let substituted = substituted(url, variables: first["variables"]?.value, what: what, at: urlMember.value.location, context: &context)
        else {
            return nil
        }
        let absolute: String
        if substituted.contains("://") {
            absolute = substituted
        } else if let document = documentServer.flatMap(SpecParser.canonicalServer), let base = URL(string: document),
            let resolved = URL(string: substituted, relativeTo: base)?.absoluteURL.absoluteString
        {
            absolute = resolved
        } else {
            context.warn(
                "the server \(quoted(url)) of \(what) is relative and the document has no absolute server to resolve it against, "
                    + "so it is sent to the client's base URL", at: urlMember.value.location)
            return nil
        }
        guard let server = SpecParser.canonicalServer(absolute) else {
            let shown = absolute == url ? quoted(url) : "\(quoted(url)) (\(quoted(absolute)))"
            context.warn(
                "the server \(shown) of \(what) is not an absolute http or https URL, so it is sent to the client's base URL; "
                    + "call it through a client whose baseURL is its real server", at: urlMember.value.location)
            return nil
        }
        if let document = documentServer.flatMap(SpecParser.canonicalServer), document == server { return nil }
        return server
    }

    /// `url` with each `{variable}` replaced by its `default` (or, without one, the first of its
    /// `enum`, with a warning); a choice among several `enum` values is a warning too. `nil`,
    /// with a warning, when a variable has nothing to choose.
    private static func substituted(
        _ url: String, variables: JSONNode?, what: String, at location: SourceLocation, context: inout OpenAPIOperationContext
    ) -> String? {
        var result = ""
        var rest = Substring(url)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            let variable = variables?[name]
            let choices = variable?.value["enum"]?.value.elements?.compactMap(\.stringValue) ?? []
            let place = variable?.keyLocation ?? location
            if let value = variable?.value["default"]?.value.stringValue {
                if choices.count > 1 {
                    context.warn(
                        "the server variable \(quoted(name)) of \(what) is sent as its default \(quoted(value)), "
                            + "one of \(choices.map { quoted($0) }.joined(separator: ", ")); the method has no argument for it",
                        at: place)
                }
                result += value
            } else if let value = choices.first {
                context.warn(
                    "the server variable \(quoted(name)) of \(what) has no default, so it is sent as \(quoted(value)), the first of its enum",
                    at: place)
                result += value
            } else {
                context.warn(
                    "the server variable \(quoted(name)) of \(what) has no default or enum to choose from, "
                        + "so it is sent to the client's base URL", at: place)
                return nil
            }
        }
        return result + rest
    }

    /// A URL without its trailing `/`s.
    private static func trimmedSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
