import Foundation

extension Endpoint {
    /// The request's body as JSON, or `nil` without one; a failure is the endpoint's
    /// `encodingFailed` error.
    func encodedBody(of request: EndpointRequest) throws -> Data? {
        do {
            return try request.encodedBody(coding)
        } catch {
            throw CachedClientError.encodingFailed(endpoint: name, reason: String(describing: error))
        }
    }

    /// The digest of the body the cache key holds, from the body `encodedBody(of:)` gave;
    /// `nil` when the body is not part of the key.
    func bodyDigest(of request: EndpointRequest, encoded: Data?) throws -> String? {
        guard request.bodyIsKey else { return nil }
        do {
            return try request.keyedBody(coding, encoded: encoded).map { SHA256.hex(of: $0) }
        } catch {
            throw CachedClientError.encodingFailed(endpoint: name, reason: String(describing: error))
        }
    }

    /// Decodes an answer; a failure is the endpoint's `decodingFailed` error, saying where
    /// and why.
    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        do {
            return try coding.makeDecoder().decode(type, from: body)
        } catch {
            throw CachedClientError.decodingFailed(endpoint: name, reason: CachedClient.reason(error))
        }
    }
}
