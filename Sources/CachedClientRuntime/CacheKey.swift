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
    /// The resolved path (`/accounts/42`, percent-encoded as sent), by which stores group
    /// entries so that an `Invalidation` of one resource removes a folder, not a scan.
    public let path: String
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
        let (text, partition) = Self.canonicalText(
            endpoint: endpoint, request: request, canonicalBase: Self.canonicalBase(baseURL),
            bodyDigest: bodyDigest, partition: partition)
        self.init(text: text, endpoint: endpoint.name, partition: partition, path: request.path)
    }

    /// Recreates a key from its parts, as a store does when it lists entries.
    ///
    /// - Parameter path: the resolved path the entry was fetched from; stores group entries
    ///   by it for `removeAll(endpoint:path:)`.
    public init(text: String, endpoint: String, partition: String?, path: String) {
        self.text = text
        self.endpoint = endpoint
        self.partition = partition
        self.path = path
        self.digest = SHA256.hex(of: text)
    }

    /// The canonical text of a request's key and the partition it belongs to (`nil` when
    /// shared); `CachedClient` calls it with a base it canonicalised once, so that a cache
    /// hit in memory costs neither the URL work nor the digest.
    static func canonicalText(
        endpoint: Endpoint, request: EndpointRequest, canonicalBase: String, bodyDigest: String?, partition: String?
    ) -> (text: String, partition: String?) {
        let scope = endpoint.cache?.scope ?? .user
        let partition = scope == .user ? (partition ?? "") : nil
        // One string built in place: this runs on every call, cache hits included.
        var text = "cachegen-key 1\nendpoint "
        text.reserveCapacity(160 + endpoint.name.utf8.count + request.path.utf8.count + endpoint.shape.utf8.count)
        text += endpoint.name
        text += "\nmethod "
        let method = request.method
        text += method.utf8.allSatisfy({ !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) ? method : method.uppercased()
        text += "\nbase "
        text += canonicalBase
        text += "\npath "
        text += request.path
        text += "\nquery "
        appendCanonical(request.query, lowercasingNames: false, to: &text)
        text += "\nheaders "
        appendCanonical(request.headers, lowercasingNames: true, to: &text)
        if request.bodyIsKey, let bodyDigest {
            text += "\nbody "
            text += bodyDigest
        }
        if let partition {
            text += "\npartition "
            text += PercentEncoding.encode(partition)
        } else {
            text += "\npartition *shared*"
        }
        text += "\nshape "
        text += endpoint.shape
        return (text, partition)
    }

    /// The digest, short enough for a log line.
    public var description: String { String(digest.prefix(16)) }

    /// Sorted by name, then value; names and values percent-encoded, so that separators
    /// inside values cannot make two different parameter lists look alike.
    private static func appendCanonical(_ parameters: [RequestParameter], lowercasingNames: Bool, to text: inout String) {
        var pairs: [(String, String)] = []
        for parameter in parameters where parameter.isKey {
            let name = lowercasingNames ? parameter.name.lowercased() : parameter.name
            pairs.append((PercentEncoding.encode(name), PercentEncoding.encode(parameter.value)))
        }
        if pairs.count > 1 { pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 } }
        for (index, pair) in pairs.enumerated() {
            if index > 0 { text += "&" }
            text += pair.0
            text += "="
            text += pair.1
        }
    }

    /// Scheme and host lower-cased, no trailing slash.
    static func canonicalBase(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        return text[..<hostEnd].lowercased() + text[hostEnd...]
    }
}
