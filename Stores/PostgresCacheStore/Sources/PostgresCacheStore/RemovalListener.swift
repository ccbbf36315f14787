import CachedClientRuntime
import Logging
import PostgresNIO
import Synchronization

/// What `PostgresCacheStore.removalCount` reads: a number in this process that moves when any
/// process removes entries from the same tables.
///
/// How a removal reaches every process:
/// 1. The remover deletes the rows, bumps the counter row `<ns>_removals` and sends
///    `NOTIFY <ns>_removals, '<new count>'`, all in one transaction, so the notification
///    leaves exactly when the rows are gone.
/// 2. Each process has one session that `LISTEN`s on the channel and is registered in
///    `<ns>_listeners` (backend id and start time, so a reused id never counts). On a
///    notification it moves this number (one atomic add), then records the count it saw.
/// 3. The remover returns only when every registered listener whose session is alive
///    (`pg_stat_activity`) has recorded the new count, or after `acknowledgementTimeout`,
///    when it terminates the sessions of those that did not, which makes them stop trusting
///    memory (below).
///
/// So the guarantee: when `removeAll…` returns, every process whose listener is connected has
/// already moved its number, and its clients drop what memory holds at their next read of it;
/// a process that is not connected (starting, reconnecting, cut off) gives a new number on
/// every read, so its clients keep nothing in memory until it listens again. Rows are gone
/// from the database when the transaction commits, so no read of the store returns them.
///
/// What each removal covered travels with it: the notification names its scope (kind and
/// digest, `RemovalScope`), and each move of this number is kept with the scope that made it,
/// the last `kept` of them (`scopes(since:)`), so clients keep what a removal did not cover.
/// A move without a known scope (a reconnection, a read while not listening, a notification
/// from a version without scopes, a gap in the counts) is kept as unknown: "everything".
///
/// Cost: on a hit in memory, one atomic load (an ordinary load on x86-64 and arm64) and a
/// second one for the connection state. On a removal, one acknowledgement query per process
/// and a few polls of `<ns>_listeners` by the remover.
final class RemovalListener: Sendable {
    /// How many moves of the number `scopes(since:)` remembers.
    static let kept = 256

    /// The number handed out while listening: bumped by every notification of a new count,
    /// by every removal through this store (before and after), and on every (re)connection.
    private let count = Atomic<UInt64>(0)
    /// The scope of each of the last `kept` moves made by `bump`, by number modulo `kept`.
    private let recent = Mutex<[(number: UInt64, scope: RemovalScope?)]>(
        Array(repeating: (0, nil), count: RemovalListener.kept))
    /// Whether the session is listening and registered; while not, every read moves `count`.
    private let listening = Atomic<Bool>(false)
    /// Tasks waiting for `listening`, resumed when it becomes true.
    private let waiters = Mutex<[CheckedContinuation<Void, Never>]>([])

    private let client: PostgresClient
    private let namespace: String
    private let schema: Task<Void, any Error>

    init(client: PostgresClient, namespace: String, schema: Task<Void, any Error>) {
        self.client = client
        self.namespace = namespace
        self.schema = schema
    }

    /// The current number; see the type's documentation.
    @inline(__always)
    var value: UInt64 {
        if listening.load(ordering: .acquiring) { return count.load(ordering: .acquiring) }
        return count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }

    /// Moves the number, keeping `scope` (`nil`: unknown) for the new one: this process's own
    /// removals call it before they start and after they end.
    func bump(_ scope: RemovalScope?) {
        recent.withLock { recent in
            let number = count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            recent[Int(number % UInt64(Self.kept))] = (number, scope)
        }
    }

    /// The scopes of the moves after `count`; `nil` unless every one of them is kept with a
    /// known scope.
    func scopes(since count: UInt64) -> [RemovalScope]? {
        recent.withLock { recent in
            let current = self.count.load(ordering: .acquiring)
            guard count < current else { return [] }
            guard current - count <= UInt64(Self.kept) else { return nil }
            var scopes: [RemovalScope] = []
            for number in (count + 1)...current {
                let kept = recent[Int(number % UInt64(Self.kept))]
                guard kept.number == number, let scope = kept.scope else { return nil }
                if scope.kind == .everything { return [scope] }
                if !scopes.contains(scope) { scopes.append(scope) }
            }
            return scopes
        }
    }

    /// The notification of fleet count `count` made by a removal of `scope`:
    /// `<count> <kind> <digest>` in decimal.
    static func payload(_ scope: RemovalScope, count: Int64) -> String {
        "\(count) \(scope.kind.rawValue) \(scope.digest)"
    }

    /// The count and, when it names one, the scope of a notification's payload; `nil` when it
    /// is not a count (then it is ignored, as before scopes).
    static func parse(_ payload: String) -> (count: Int64, scope: RemovalScope?)? {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard let count = fields.first.flatMap({ Int64($0) }) else { return nil }
        guard fields.count == 3, let raw = UInt8(fields[1]), let kind = RemovalScope.Kind(rawValue: raw),
            let digest = UInt64(fields[2])
        else { return (count, nil) }
        return (count, RemovalScope(kind: kind, digest: digest))
    }

    /// Waits until the session listens (or the store shuts down).
    func waitUntilListening() async {
        if listening.load(ordering: .acquiring) { return }
        await withCheckedContinuation { continuation in
            let resumeNow = waiters.withLock { waiters -> Bool in
                if listening.load(ordering: .acquiring) { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func setListening(_ value: Bool) {
        if value {
            // The number moves before memory is trusted again: removals made while we were
            // not listening are not known one by one.
            bump(nil)
            let resumed = waiters.withLock { waiters in
                listening.store(true, ordering: .releasing)
                defer { waiters = [] }
                return waiters
            }
            for waiter in resumed { waiter.resume() }
        } else {
            listening.store(false, ordering: .releasing)
            bump(nil)
        }
    }

    /// Listens until cancelled, reconnecting after a failure with a growing pause (50 ms to 2 s).
    func run() async {
        var pause: Duration = .milliseconds(50)
        while !Task.isCancelled {
            do {
                try await schema.value
                try await listenOnce { pause = .milliseconds(50) }
            } catch {}
            // However the session ended, what it did not see is unknown.
            setListening(false)
            if Task.isCancelled { break }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
        }
        setListening(false)
        // Nobody waits for a store that has shut down.
        let remaining = waiters.withLock { waiters in
            defer { waiters = [] }
            return waiters
        }
        for waiter in remaining { waiter.resume() }
    }

    /// One session: `LISTEN`, register, then acknowledge each notification until the session ends.
    private func listenOnce(connected: () -> Void) async throws {
        let ns = namespace
        let logger = PostgresCacheStore.logger
        try await client.withConnection { connection in
            try await connection.listen(on: ns + "_removals") { notifications in
                // Registered after LISTEN (same session, so in order): a removal committed
                // from here on is either in the count read below or notified.
                var seen: Int64 = 0
                let rows = try await connection.query(
                    """
                    INSERT INTO \(unescaped: ns)_listeners (pid, backend_start, seen)
                    SELECT pid, backend_start, (SELECT count FROM \(unescaped: ns)_removals WHERE id = 1)
                    FROM pg_stat_activity WHERE pid = pg_backend_pid()
                    ON CONFLICT (pid) DO UPDATE SET backend_start = EXCLUDED.backend_start, seen = EXCLUDED.seen
                    RETURNING seen
                    """, logger: logger)
                for try await value in rows.decode(Int64.self) { seen = value }
                // Rows of sessions that ended (a process killed, a connection lost) only slow removals.
                try await connection.run(
                    """
                    DELETE FROM \(unescaped: ns)_listeners l WHERE NOT EXISTS (
                        SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.pid AND a.backend_start = l.backend_start)
                    """, logger: logger)
                setListening(true)
                connected()
                for try await notification in notifications {
                    guard let (announced, scope) = Self.parse(notification.payload) else { continue }
                    // A removal sends its count twice, with its scope and without (for older
                    // versions): the second is already acknowledged.
                    guard announced > seen else { continue }
                    // A count that skips one (never seen in one session) leaves a move unknown.
                    bump(announced == seen + 1 ? scope : nil)
                    seen = announced
                    try await connection.run(
                        "UPDATE \(unescaped: ns)_listeners SET seen = greatest(seen, \(announced)) WHERE pid = pg_backend_pid()",
                        logger: logger)
                }
            }
        }
    }
}
