/// Thrown by a generated `Mock…` repository for an endpoint the test or preview did not
/// give a handler, so a missing stub fails loudly instead of returning made-up data.
public struct MockNotImplemented: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Repository.method` of the call.
    public var endpoint: String

    /// Creates the error.
    public init(endpoint: String) {
        self.endpoint = endpoint
    }

    /// Says which handler to set.
    public var description: String {
        "\(endpoint) has no handler in this mock; set it when creating the mock."
    }
}

/// Streams for generated `Mock…` repositories.
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
