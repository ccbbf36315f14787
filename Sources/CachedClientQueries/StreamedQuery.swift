#if canImport(Observation)
import Foundation
import Observation
import CachedClientHTTP
@_spi(Generated) import CachedClientCalls
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Data a screen watches while it streams in: the events of a streamed endpoint accumulated
/// into one value by a reducer (append a token, replace a status), for SwiftUI
/// (`@Observable`) or any code that observes; a chat or LLM answer that grows as it arrives.
///
/// Generated repositories make one per streamed endpoint
/// (`repo.completionQuery(body: prompt, initial: "") { $0 += $1.text }`); it calls the
/// repository's method, so the same query works over a `Mock…` repository in previews.
///
/// - `start()` connects; each event is reduced into `value` on the main actor, one change
///   (one notification) per event; `isStreaming` is `true` until the stream ends.
/// - A stream that ends normally (or with `[DONE]`) leaves its value `isComplete`, and a
///   stream from a `CachedClient` keeps that value in the client's store, as an answer is
///   kept: through its writer, beside the request's entries (user-scoped, so a sign-out
///   removes it; an invalidation of the endpoint too), under a key of its own that a plain
///   call of the same path never reads.
/// - When a later start cannot connect (offline, a transport failure, a 5xx or 429) before
///   any event, the query shows the last complete value kept, with its `date`; without one,
///   `error` says why. A half-finished value is never kept: a stream that fails mid-way
///   keeps its partial value on screen, with `error` set, and stores nothing.
/// - Releasing the query cancels its stream at once (the connection is closed); so do
///   `cancel()` and `restart()`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class StreamedQuery<Event: Sendable, Value: Codable & Sendable> {
    /// The events so far reduced into the initial value; the initial value before the first
    /// event, and the last complete value kept when the stream could not connect (`date`).
    public internal(set) var value: Value
    /// Whether the stream runs now (connecting included).
    public internal(set) var isStreaming = false
    /// Whether `value` is a finished answer: its stream ended normally, or it is the last
    /// complete value kept (`date`). `false` while streaming, and for the partial value of a
    /// stream that failed or was cancelled.
    public internal(set) var isComplete = false
    /// When the value shown was kept, if it came from the store because the stream could not
    /// connect; `nil` for a value that streamed in now (as `CachedValue.date`).
    public internal(set) var date: Date?
    /// Why the last run failed, if it did (a stream cut mid-way, or no connection and nothing
    /// kept); cleared by the next start. Cancellation is never an error here.
    public internal(set) var error: (any Error)?

    /// The value, saying whether it streamed in now (`.fresh`) or was kept before (`.cached`
    /// with its date).
    public var cachedValue: CachedValue<Value> {
        if let date { return .cached(value: value, date: date) }
        return .fresh(value: value)
    }

    @ObservationIgnored private let initial: Value
    @ObservationIgnored private let name: String
    @ObservationIgnored private let stream: @Sendable () -> EventStream<Event>
    @ObservationIgnored private let reduce: @Sendable (inout Value, Event) -> Void
    /// Whether `value` is still the initial value, so a start need not set it (and notify).
    @ObservationIgnored private var showsInitial = true
    /// The number of the latest run started; only it changes the state.
    @ObservationIgnored private var latestRun = 0
    /// The running stream's task; cancelled when the query goes.
    @ObservationIgnored package let running = StreamedQueryTask()

    /// Creates a query that reduces the events of `stream` into `initial` with `reduce`.
    /// Nothing runs until `start()`.
    ///
    /// - Parameters:
    ///   - initial: The value before the first event (an empty text, an empty list).
    ///   - name: Keeps apart the finished values of different queries over one request (two
    ///     reducers into the same type); `nil` names it by `Value`'s type.
    ///   - reduce: Folds one event into the value, on the main actor.
    ///   - stream: Makes the stream; called at each start (a repository's streamed method).
    nonisolated public init(
        initial: Value, name: String? = nil, reduce: @escaping @Sendable (inout Value, Event) -> Void,
        stream: @escaping @Sendable () -> EventStream<Event>
    ) {
        self.initial = initial
        _value = initial  // the storage: the observed property is the main actor's
        self.name = name ?? String(reflecting: Value.self)
        self.reduce = reduce
        self.stream = stream
    }

    /// Starts the stream from the initial value, unless it runs already.
    public func start() {
        guard !isStreaming else { return }
        begin()
    }

    /// Cancels a running stream and starts again from the initial value.
    public func restart() {
        begin()
    }

    /// Cancels the stream; the value so far stays, not complete and not kept.
    public func cancel() {
        latestRun += 1
        running.replace(nil)
        if isStreaming { isStreaming = false }
    }

    private func begin() {
        latestRun += 1
        let number = latestRun
        if !showsInitial {
            value = initial
            showsInitial = true
        }
        if date != nil { date = nil }
        if error != nil { error = nil }
        if isComplete { isComplete = false }
        if !isStreaming { isStreaming = true }
        let events = stream()
        // Made now, so a removal or a sign-out while the stream runs keeps its value out.
        let keeper = (events.origin as? StreamOrigin).flatMap { try? $0.keeper(name: name) }
        let reduce = self.reduce
        running.replace(
            Task { @MainActor [weak self] in
                var received = false
                do {
                    for try await event in events {
                        guard let self, self.latestRun == number else { return }
                        reduce(&self.value, event.value)
                        self.showsInitial = false
                        received = true
                    }
                } catch {
                    // The kept value is read without holding the query, which may go meanwhile.
                    var fallback: CachedValue<Value>?
                    if !received, CallFetcher.allowsFallback(error) { fallback = await keeper?.stored(as: Value.self) }
                    self?.fail(number, error, fallback: fallback)
                    return
                }
                // A cancelled iteration ends like a finished one: its value is partial.
                guard !Task.isCancelled, let self, self.latestRun == number else { return }
                self.isStreaming = false
                self.isComplete = true
                keeper?.keep(self.value)
            })
    }

    /// Ends run `number` after its stream threw: shows the value kept before, if the stream
    /// could not connect and there is one, and otherwise the error (a cancellation is none).
    private func fail(_ number: Int, _ failure: any Error, fallback: CachedValue<Value>?) {
        guard latestRun == number else { return }
        if let fallback {
            value = fallback.value
            showsInitial = false
            date = fallback.date
            isComplete = true
        } else if !CallFetcher.isCancellation(failure) {
            error = failure
        }
        isStreaming = false
    }

    /// Returns when the running stream's task has ended; for tests, which must not sleep.
    package func waitForStream() async {
        await running.current?.value
    }
}

/// The task a `StreamedQuery` runs its stream in, held by the query alone, so that when the
/// query goes this goes too and its `deinit` cancels the task (and so the connection).
///
/// Kept apart from the query because a `@MainActor` class's `deinit` may not touch its
/// isolated state; this one is `Sendable` and may be released on any thread.
package final class StreamedQueryTask: Sendable {
    private let task = Locked<Task<Void, Never>?>(nil)

    deinit {
        task.withLock { $0 }?.cancel()
    }

    /// Replaces the task, cancelling the one before; `nil` only cancels.
    package func replace(_ new: Task<Void, Never>?) {
        let old = task.withLock { task in
            defer { task = new }
            return task
        }
        old?.cancel()
    }

    /// The task of the latest run, if any.
    package var current: Task<Void, Never>? {
        task.withLock { $0 }
    }
}
#endif
