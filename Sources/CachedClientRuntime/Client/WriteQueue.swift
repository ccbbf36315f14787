import Foundation

/// The tasks that carry `CachedClient`'s writes to its store after the calls that made them
/// have returned (write-behind), one chain per key so that a key's writes land in the order
/// they were handed over: a later answer is never overwritten by an earlier one landing late.
/// (A write whose turn comes after a newer one was handed over is skipped by the client.)
/// Different keys are written concurrently.
///
/// Writes run at `.utility` priority. At the caller's priority a write (a file write blocks
/// its thread for 100–200 µs on ext4) was queued ahead of the caller's own continuation on
/// the shared executor, which then waited for it: on 2 cores that cost a fresh call most of
/// what writing behind it saved. Awaiting a write (`flush()`, a removal) raises its priority.
///
/// It only runs and tracks the work; what is pending and whether a write is still wanted is
/// `DecodedValueCache`'s to say, under the same lock as the removals' generations.
final class WriteQueue: Sendable {
    /// The last write handed over for one key; it waits for the one before it, so waiting
    /// for it waits for every write of the key handed over so far.
    private struct Tail: Sendable {
        let key: CacheKey
        let id: UInt64
        let task: Task<Void, Never>
    }

    private let tails = Locked<[String: Tail]>([:])

    /// Runs `write` once every earlier write of `key` has finished. `id` must increase with
    /// every call (it tells the chain's last write apart from earlier ones).
    func enqueue(_ key: CacheKey, id: UInt64, _ write: @escaping @Sendable () async -> Void) {
        tails.withLock { tails in
            let previous = tails[key.text]?.task
            let task = Task(priority: .utility) {
                await previous?.value
                await write()
                self.tails.withLock { tails in
                    if tails[key.text]?.id == id { tails[key.text] = nil }
                }
            }
            tails[key.text] = Tail(key: key, id: id, task: task)
        }
    }

    /// Waits until every write handed over so far for a key `covers` names has finished
    /// (landed, failed or given up); writes handed over meanwhile are not waited for.
    func wait(for covers: (CacheKey) -> Bool = { _ in true }) async {
        let tasks = tails.withLock { tails in tails.values.filter { covers($0.key) }.map(\.task) }
        for task in tasks { await task.value }
    }

    /// Whether any write is under way or waiting; for tests.
    var isIdle: Bool {
        tails.withLock { $0.isEmpty }
    }
}
