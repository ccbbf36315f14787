#if canImport(os)
import CachedClientRuntime
import os

/// The cache's events in the unified log (Console.app, `log stream`): errors as errors, the
/// rest as debug. Events hold no user data, so the line is public.
@available(macOS 11, iOS 14, tvOS 14, watchOS 7, *)
public func logCacheEvents(to logger: os.Logger) -> @Sendable (CacheEvent) -> Void {
    { event in
        if event.kind == .error {
            logger.error("\(event.description, privacy: .public)")
        } else {
            logger.debug("\(event.description, privacy: .public)")
        }
    }
}
#endif
