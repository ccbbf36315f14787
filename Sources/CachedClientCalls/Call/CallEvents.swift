import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues

/// Where every stage of a call reports what happened: the app's `events` handler, with
/// messages that never quote a URL, a parameter value, a body or a header.
package struct CallEvents: Sendable {
    /// The app's handler, called synchronously.
    package let handler: @Sendable (CacheEvent) -> Void
    /// Asked first how to describe an error of its own (`CacheStore.eventDescription(of:)`).
    package let store: any CacheStore

    /// Reports `kind` for `call`.
    package func emit(_ kind: CacheEvent.Kind, _ call: CachedClient.Call, age: Double? = nil, message: String? = nil) {
        handler(CacheEvent(kind: kind, endpoint: call.endpoint.name, key: call.key.description, age: age, message: message))
    }

    /// `.hit` for an entry within `ttl` `now`, `.stale` for an older one.
    package func emitUse(_ entry: CacheEntry, _ call: CachedClient.Call, now: () -> Date) {
        emit(call.rule.isFresh(entry, at: now()) ? .hit : .stale, call, age: entry.age(at: now()))
    }

    /// Text for an event message. `String(describing:)` of a `URLError` or a `DecodingError`
    /// could quote a URL or a value, so each kind of error is described by what is safe.
    package func safeDescription(of error: any Error) -> String {
        switch error {
        case let error as URLError:
            return error.code.summary
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
