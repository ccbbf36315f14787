import Foundation

/// The identity of a cache entry, built in this one place from everything that makes
/// two answers different.
///
/// The canonical text holds the endpoint, method, base URL (so staging never serves
/// production data), resolved path, key query parameters sorted and percent-encoded,
/// key headers, the body digest when the body is in the key, the partition for
/// user-scoped entries and the response shape fingerprint. Stores keep the text with
/// the entry and compare it on read, so a hash collision can never serve a wrong entry.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical text; one `field value` pair per line.
    public let text: String
    /// The endpoint name, for `removeAll(endpoint:)` and events.
    public let endpoint: String
    /// The partition of a user-scoped entry; `nil` for shared entries.
    public let partition: String?
    /// Hex SHA-256 of `text`: a file name, and safe to log.
    public let digest: String

    /// Builds the key of a request to an endpoint.
    ///
    /// - Parameters:
    ///   - bodyDigest: hex SHA-256 of the encoded body, when the body is in the key.
    ///   - partition: the client's partition; used only for user-scoped endpoints.
    public init(
        endpoint: Endpoint, request: EndpointRequest, baseURL: URL, bodyDigest: String?, partition: String?
    ) {
        let scope = endpoint.cache?.scope ?? .user
        let partition = scope == .user ? (partition ?? "") : nil
        var lines = [
            "cachegen-key 1",
            "endpoint \(endpoint.name)",
            "method \(request.method.uppercased())",
            "base \(Self.canonicalBase(baseURL))",
            "path \(request.path)",
            "query \(Self.canonical(request.query.filter(\.isKey), lowercasingNames: false))",
            "headers \(Self.canonical(request.headers.filter(\.isKey), lowercasingNames: true))",
        ]
        if request.bodyIsKey, let bodyDigest { lines.append("body \(bodyDigest)") }
        lines.append(partition.map { "partition \(PercentEncoding.encode($0))" } ?? "partition *shared*")
        lines.append("shape \(endpoint.shape)")
        self.init(text: lines.joined(separator: "\n"), endpoint: endpoint.name, partition: partition)
    }

    /// Recreates a key from its parts, as a store does when it lists entries.
    public init(text: String, endpoint: String, partition: String?) {
        self.text = text
        self.endpoint = endpoint
        self.partition = partition
        self.digest = SHA256.hex(of: Data(text.utf8))
    }

    /// The digest, short enough for a log line.
    public var description: String { String(digest.prefix(16)) }

    /// Sorted by name, then value; names and values percent-encoded, so that separators
    /// inside values cannot make two different parameter lists look alike.
    private static func canonical(_ parameters: [RequestParameter], lowercasingNames: Bool) -> String {
        parameters
            .map { parameter -> (String, String) in
                let name = lowercasingNames ? parameter.name.lowercased() : parameter.name
                return (PercentEncoding.encode(name), PercentEncoding.encode(parameter.value))
            }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Scheme and host lower-cased, no trailing slash.
    private static func canonicalBase(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        return text[..<hostEnd].lowercased() + text[hostEnd...]
    }
}
