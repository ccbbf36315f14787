import Foundation

extension FixtureServer {
    /// A way to send an answer wrong on purpose, as broken servers, proxies and networks do
    /// (a route's `"fault"` in `fixture_server.py`).
    public enum NetworkFault: Sendable {
        /// `Content-Length` of the whole body, only `sending` bytes of it, then the
        /// connection closed (FIN).
        case cutShort(sending: Int)
        /// Chunked encoding: `sending` bytes in one chunk, then the connection closed without
        /// the last (zero-length) chunk.
        case cutShortChunked(sending: Int)
        /// `Content-Length` says `length`, less than the body, and the whole body follows on
        /// a connection kept open.
        case lyingLength(Int)
        /// The head (`Content-Length` of the whole body) and `sending` bytes, then a reset:
        /// `SO_LINGER` 0 and close, so the kernel sends RST.
        case reset(sending: Int)
        /// The head and `sending` bytes, then nothing until the client closes the connection
        /// (counted, see `closedConnections(path:atLeast:)`), at most 30 seconds.
        case stall(sending: Int)
        /// The head, then the body one byte at a time, `intervalMilliseconds` apart.
        case trickle(intervalMilliseconds: Int)
        /// The body under its true `Content-Length`, then `extra` on the same connection: in
        /// the same write, or `afterMilliseconds` later in a write of its own.
        case extraBytes(String, afterMilliseconds: Int)
    }

    /// The route's `"fault"` object.
    private struct FaultSpec: Encodable {
        var mode: String
        var send: Int?
        var length: Int?
        var interval_ms: Int?
        var extra: String?
        var extra_after_ms: Int?

        init(_ fault: NetworkFault) {
            switch fault {
            case .cutShort(let sending): mode = "cut_short"; send = sending
            case .cutShortChunked(let sending): mode = "cut_short_chunked"; send = sending
            case .lyingLength(let declared): mode = "lying_length"; length = declared
            case .reset(let sending): mode = "reset"; send = sending
            case .stall(let sending): mode = "stall"; send = sending
            case .trickle(let interval): mode = "trickle"; interval_ms = interval
            case .extraBytes(let bytes, let after): mode = "extra_bytes"; extra = bytes; extra_after_ms = after
            }
        }
    }

    private struct FaultRoute: Encodable {
        var method: String
        var path: String
        var status: Int
        var headers: [String: String]
        var body: String
        var fault: FaultSpec
        var times: Int?
    }

    /// Serves `body` for `method path` with `status` and `headers`, sent wrong as `fault` says;
    /// `times` puts the route in front of the others for that many requests, as for `setRoute`.
    public func setFaultRoute(
        _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:], body: String,
        fault: NetworkFault, times: Int? = nil
    ) async throws {
        let route = FaultRoute(
            method: method, path: path, status: status, headers: headers, body: body, fault: FaultSpec(fault), times: times)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }
}
