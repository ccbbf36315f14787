import Foundation

/// A response whose body arrives in chunks as the server sends it, for event streams.
///
/// The body ends when the server closes the response, throws what the transport throws
/// when the connection is lost, and closes the connection when the task reading it is
/// cancelled (or the stream is dropped).
public struct HTTPStreamedResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// Header fields, names in lower case.
    public private(set) var headers: [String: String]
    /// The body's chunks, in order.
    public var body: AsyncThrowingStream<Data, any Error>

    /// Creates a response; header names are lower-cased so lookups ignore case.
    public init(statusCode: Int, headers: [String: String] = [:], body: AsyncThrowingStream<Data, any Error>) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A streamed response whose body is `response`'s, as one chunk.
    public init(_ response: HTTPResponse) {
        let body = response.body
        self.init(
            statusCode: response.statusCode, headers: response.headers,
            body: AsyncThrowingStream { continuation in
                if !body.isEmpty { continuation.yield(body) }
                continuation.finish()
            })
    }

    /// The value of a header field, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The whole body, for an answer that is not the stream (an error's body), up to `limit` bytes.
    package func collectedBody(limit: Int = 64 * 1024) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk.prefix(limit - data.count))
            if data.count >= limit { break }
        }
        return data
    }
}
