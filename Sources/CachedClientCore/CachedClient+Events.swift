import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues

// Events, and what an error may say in one: never a URL, a parameter value, a body or a header.
extension CachedClient {
    package func emit(_ kind: CacheEvent.Kind, _ call: Call, age: Double? = nil, message: String? = nil) {
        events(CacheEvent(kind: kind, endpoint: call.endpoint.name, key: call.key.description, age: age, message: message))
    }

    /// `.hit` for an entry within `ttl`, `.stale` for an older one.
    package func emitUse(_ entry: CacheEntry, _ call: Call) {
        emit(call.rule.isFresh(entry, at: now()) ? .hit : .stale, call, age: entry.age(at: now()))
    }

    /// Whether `networkFirst` may answer from the cache after this error: a transport
    /// failure, a 5xx or a 429 (the server asked to come back later), never another 4xx, a
    /// failed sign-in, a bad answer or a cancellation.
    package static func allowsFallback(_ error: any Error) -> Bool {
        if isCancellation(error) { return false }
        if case .httpStatus(let status, _, _) = error as? CachedClientError {
            return (500..<600).contains(status) || status == 429
        }
        if error is AuthenticationError { return false }
        return !(error is CachedClientError)
    }

    package static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    /// Text for an event message. `String(describing:)` of a `URLError` or a `DecodingError`
    /// could quote a URL or a value, so each kind of error is described by what is safe.
    package func safeDescription(of error: any Error) -> String {
        switch error {
        case let error as URLError:
            return Self.describe(error.code)
        case let error as CachedClientError:
            switch error {
            case .httpStatus(let status, _, _): return "status \(status)"
            case .decodingFailed: return "decoding failed"
            case .encodingFailed: return "encoding failed"
            case .invalidURL: return "invalid URL"
            case .notCached: return "not cached"
            }
        case is RateLimitedError:
            return "not sent: the host asked to wait (429 Retry-After)"
        case is AuthenticationError:
            return "credential refresh failed"
        case let error as DecodingError:
            return "DecodingError \(Self.reason(error, includingDetail: false))"
        default:
            if let description = store.eventDescription(of: error) { return description }
            let error = error as NSError
            return "\(error.domain) \(error.code)"
        }
    }

    /// A transport failure's code with what it means ("URLError -1001 (timed out)"), so that a
    /// log line says a stall timed out or a reset lost the connection; other codes by number.
    package static func describe(_ code: URLError.Code) -> String {
        let meaning: String? =
            switch code {
            case .timedOut: "timed out"
            case .networkConnectionLost: "connection lost"
            case .cannotConnectToHost: "cannot connect to host"
            case .cannotFindHost: "cannot find host"
            case .dnsLookupFailed: "DNS lookup failed"
            case .notConnectedToInternet: "not connected to the internet"
            case .badServerResponse: "bad server response"
            case .cannotParseResponse: "cannot parse response"
            case .secureConnectionFailed: "secure connection failed"
            default: nil
            }
        return "URLError \(code.rawValue)" + (meaning.map { " (\($0))" } ?? "")
    }

    /// Where and why decoding failed; the detail (which may quote a value) only for the
    /// error thrown to the developer, never for events.
    package static func reason(_ error: any Error, includingDetail: Bool = true) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "at the top level" : "at \(path)"
        }
        func detail(_ context: DecodingError.Context) -> String {
            includingDetail ? ": \(context.debugDescription)" : ""
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "type mismatch (expected \(type)) \(path(context))\(detail(context))"
        case .valueNotFound(let type, let context):
            return "missing value (expected \(type)) \(path(context))\(detail(context))"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" \(path(context))\(detail(context))"
        case .dataCorrupted(let context):
            return "invalid data \(path(context))\(detail(context))"
        @unknown default:
            return includingDetail ? String(describing: error) : "unknown"
        }
    }
}
