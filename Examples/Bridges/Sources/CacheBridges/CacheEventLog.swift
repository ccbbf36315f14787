import CachedClientRuntime
import Logging

/// The cache's events as swift-log messages: errors as warnings, the rest as debug, with the
/// endpoint, key digest and age as metadata. Events never hold parameter values, bodies or
/// headers, so every field is safe to log.
public func logCacheEvents(to logger: Logger) -> @Sendable (CacheEvent) -> Void {
    { event in
        var metadata: Logger.Metadata = ["endpoint": "\(event.endpoint)", "key": "\(event.key)"]
        if let age = event.age { metadata["age"] = "\(Int(age))s" }
        if let message = event.message { metadata["reason"] = "\(message)" }
        logger.log(level: event.kind == .error ? .warning : .debug, "cache \(event.kind.rawValue)", metadata: metadata)
    }
}
