/// The events of a streamed response (Server-Sent Events, JSON Lines, JSON text
/// sequences), typed, in the order the server sent them; never cached.
///
/// Nothing is sent until the sequence is iterated, and each iteration is a request of its
/// own. Cancelling the iterating task (or leaving the loop) closes the connection. The
/// sequence ends when the response ends, after its last event. A Server-Sent Events stream
/// whose server sent event IDs is resumed with `Last-Event-ID` when its connection is lost
/// mid-stream; an endpoint marked as a long-lived channel (`"channel": true`) is connected
/// again when its response ends too; both as `RetryPolicy.maxReconnects` allows.
public struct EventStream<Value: Sendable>: AsyncSequence, Sendable {
    /// One event with its fields.
    public typealias Element = StreamEvent<Value>

    private let make: @Sendable () -> AsyncThrowingStream<StreamEvent<Value>, any Error>
    /// Where the events come from, when a `CachedClient` made the sequence (its endpoint and
    /// request); a `StreamedQuery` keeps its finished value there. `nil` for mocks.
    package var origin: (any Sendable)?

    /// A sequence whose iterations each start `make`'s stream.
    public init(_ make: @escaping @Sendable () -> AsyncThrowingStream<StreamEvent<Value>, any Error>) {
        self.make = make
    }

    /// A sequence of the given events, for mocks and previews.
    public init(_ events: [StreamEvent<Value>]) {
        self.init {
            AsyncThrowingStream { continuation in
                for event in events { continuation.yield(event) }
                continuation.finish()
            }
        }
    }

    /// A sequence of the given values, each an event with no fields, for mocks and previews.
    public init(values: [Value]) {
        self.init(values.map { StreamEvent($0) })
    }

    /// A sequence that fails at once with `error`.
    public init(failing error: any Error) {
        self.init { AsyncThrowingStream { $0.finish(throwing: error) } }
    }

    /// Starts a new iteration (and request).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: make().makeAsyncIterator())
    }

    /// Iterates the events of one request.
    public struct AsyncIterator: AsyncIteratorProtocol {
        package var base: AsyncThrowingStream<StreamEvent<Value>, any Error>.AsyncIterator

        /// The next event, `nil` at the end; throws what ended the stream.
        public mutating func next() async throws -> StreamEvent<Value>? {
            try await base.next()
        }
    }
}
