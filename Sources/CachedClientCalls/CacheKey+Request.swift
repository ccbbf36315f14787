import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

// Building a request's key: the one place that turns an endpoint, a request, the base URL and
// the partition into the key's canonical text. Beside the client, which calls it on every
// call, so that the store's contract (`Store/`) knows nothing of requests.
extension CacheKey {
    /// Builds the key of a request to an endpoint.
    ///
    /// - Parameters:
    ///   - bodyDigest: hex SHA-256 of the encoded body, when the body is in the key.
    ///   - partition: the client's partition; used only for user-scoped endpoints.
    ///   - baseURL: the client's; an endpoint with a `server` of its own is keyed by that instead.
    @_spi(Generated)
    public init(
        endpoint: Endpoint, request: EndpointRequest, baseURL: URL, bodyDigest: String?, partition: String?
    ) {
        let (text, partition) = Self.canonicalText(
            endpoint: endpoint, request: request, canonicalBase: endpoint.server ?? Self.canonicalBase(baseURL),
            bodyDigest: bodyDigest, partition: partition)
        self.init(text: text, endpoint: endpoint.name, partition: partition, path: request.groupPath)
    }

    /// The canonical text of a request's key and the partition it belongs to (`nil` when
    /// shared); `CachedClient` calls it with a base it canonicalised once, so that a cache
    /// hit in memory costs neither the URL work nor the digest.
    ///
    /// Written in one pass into a string allocated once at its exact size: this runs on
    /// every call, cache hits included, and appending piece by piece to a `String` cost
    /// more than the rest of a hit in memory.
    package static func canonicalText(
        endpoint: Endpoint, request: EndpointRequest, canonicalBase: String, bodyDigest: String?, partition: String?
    ) -> (text: String, partition: String?) {
        let scope = endpoint.cache?.scope ?? .user
        let partition = scope == .user ? partition : nil
        let method = request.method
        let canonicalMethod =
            method.utf8.allSatisfy({ !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) ? method : method.uppercased()
        let query = CanonicalParameters(request.query, lowercasingNames: false)
        let headers = CanonicalParameters(request.headers, lowercasingNames: true)
        let body = request.bodyIsKey ? bodyDigest : nil
        // `*` is always percent-encoded in a user's partition, so neither marker can be one.
        let encodedPartition = partition.map { PercentEncoding.encode($0) } ?? (scope == .user ? "*signed-out*" : "*shared*")

        var count = Label.start.utf8CodeUnitCount + endpoint.name.utf8.count
        count += Label.method.utf8CodeUnitCount + canonicalMethod.utf8.count
        count += Label.base.utf8CodeUnitCount + canonicalBase.utf8.count
        count += Label.path.utf8CodeUnitCount + request.path.utf8.count
        count += Label.query.utf8CodeUnitCount + query.byteCount
        count += Label.headers.utf8CodeUnitCount + headers.byteCount
        if let body { count += Label.body.utf8CodeUnitCount + body.utf8.count }
        count += Label.partition.utf8CodeUnitCount + encodedPartition.utf8.count
        count += Label.shape.utf8CodeUnitCount + endpoint.shape.utf8.count

        let text = String(unsafeUninitializedCapacity: count) { buffer in
            var writer = UTF8Writer(buffer)
            writer.write(Label.start)
            writer.write(endpoint.name)
            writer.write(Label.method)
            writer.write(canonicalMethod)
            writer.write(Label.base)
            writer.write(canonicalBase)
            writer.write(Label.path)
            writer.write(request.path)
            writer.write(Label.query)
            query.write(to: &writer)
            writer.write(Label.headers)
            headers.write(to: &writer)
            if let body {
                writer.write(Label.body)
                writer.write(body)
            }
            writer.write(Label.partition)
            writer.write(encodedPartition)
            writer.write(Label.shape)
            writer.write(endpoint.shape)
            return writer.count
        }
        return (text, partition)
    }

    /// The fixed parts of the text, in order; static strings, so reading one costs nothing.
    private enum Label {
        package static let start: StaticString = "cachegen-key 1\nendpoint "
        package static let method: StaticString = "\nmethod "
        package static let base: StaticString = "\nbase "
        package static let path: StaticString = "\npath "
        package static let query: StaticString = "\nquery "
        package static let headers: StaticString = "\nheaders "
        package static let body: StaticString = "\nbody "
        package static let partition: StaticString = "\npartition "
        package static let shape: StaticString = "\nshape "
    }

    /// Scheme and host lower-cased, no trailing slash.
    ///
    /// Searches the UTF-8 bytes (an absolute URL string is ASCII), not with Foundation's
    /// `range(of:)` or the standard library's `firstRange(of:)`, each of which costs more
    /// than the rest of a key.
    package static func canonicalBase(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        // The offset of the first `/` after `://`, or the end.
        let hostEnd = text.withUTF8 { bytes -> Int? in
            var index = 0
            while index + 3 <= bytes.count {
                if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                    var end = index + 3
                    while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
                    return end
                }
                index += 1
            }
            return nil
        }
        guard let hostEnd else { return text }
        let split = text.utf8.index(text.utf8.startIndex, offsetBy: hostEnd)
        return text[..<split].lowercased() + text[split...]
    }
}

/// A request's key parameters as the key text lists them: names lower-cased for headers,
/// names and values percent-encoded, sorted by name, then value, joined as `a=1&b=2`, so
/// that separators inside values cannot make two different parameter lists look alike.
///
/// Most requests have one key parameter or none, which are written without an array; only
/// two or more are collected and sorted.
private struct CanonicalParameters {
    /// One parameter as the text holds it. (A struct, not a tuple: an optional tuple is
    /// handled through run-time type metadata, which showed in profiles.)
    package struct Pair {
        package var name: String
        package var value: String
    }

    /// The one key parameter, encoded; `nil` when there are none or several.
    private var single: Pair?
    /// Two or more key parameters, encoded and sorted.
    private var several: [Pair] = []
    /// The length of the joined text in UTF-8 bytes.
    package private(set) var byteCount = 0

    package init(_ parameters: [RequestParameter], lowercasingNames: Bool) {
        for parameter in parameters where parameter.isKey {
            let name = PercentEncoding.encode(lowercasingNames ? parameter.name.lowercased() : parameter.name)
            let pair = Pair(name: name, value: PercentEncoding.encode(parameter.value))
            byteCount += (byteCount == 0 ? 0 : 1) + pair.name.utf8.count + 1 + pair.value.utf8.count
            if let first = single {
                several = [first, pair]
                single = nil
            } else if several.isEmpty {
                single = pair
            } else {
                several.append(pair)
            }
        }
        if several.count > 1 { several.sort { $0.name != $1.name ? $0.name < $1.name : $0.value < $1.value } }
    }

    package func write(to writer: inout UTF8Writer) {
        if let single {
            write(single, to: &writer)
            return
        }
        for (index, pair) in several.enumerated() {
            if index > 0 { writer.write(UInt8(ascii: "&")) }
            write(pair, to: &writer)
        }
    }

    private func write(_ pair: Pair, to writer: inout UTF8Writer) {
        writer.write(pair.name)
        writer.write(UInt8(ascii: "="))
        writer.write(pair.value)
    }
}
