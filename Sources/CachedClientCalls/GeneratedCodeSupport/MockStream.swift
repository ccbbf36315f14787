
/// Streams for generated `Mock…` repositories.
@_spi(Generated)
public enum MockStream {
    /// A stream that yields the one value `produce` returns, or finishes with its error;
    /// a mock's `…Stream` method answers with its handler's value this way.
    public static func once<Value: Sendable>(
        _ produce: @escaping @Sendable () async throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await produce())
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
