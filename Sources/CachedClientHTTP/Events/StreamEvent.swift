/// One event of a streamed response: its value, and for Server-Sent Events the fields
/// the server sent with it.
public struct StreamEvent<Value: Sendable>: Sendable {
    /// The event's data (a JSON Lines or JSON sequence record) decoded as the stream's type.
    public var value: Value
    /// The SSE `event` field, or `nil` when the server named none (a `message`).
    public var event: String?
    /// The SSE last event ID when the event arrived, or `nil` while the server sent none.
    public var id: String?
    /// The SSE `retry` field sent with this event: how long to wait before resuming.
    public var retry: Duration?

    /// Creates an event, for mocks and tests.
    public init(_ value: Value, event: String? = nil, id: String? = nil, retry: Duration? = nil) {
        self.value = value
        self.event = event
        self.id = id
        self.retry = retry
    }
}

extension StreamEvent: Equatable where Value: Equatable {}
