import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// The client's view of its outbox for the signed-in user: the mutations in order, which
/// are being sent, which scopes are busy, and the observable list that mirrors them. The
/// network is the mutation layer's (`MutationLayer+OfflineWrites.swift`); this only decides what may
/// be sent next, so that each scope sends one mutation at a time, oldest first.
package actor MutationQueue {
    /// Where mutations are kept: the store, or memory for a store that keeps no outbox.
    package let outbox: any MutationOutbox
    /// Whether `outbox` is the client's own (the store keeps none), which the client must
    /// then clear itself on `removeAll…`.
    package let isPrivate: Bool
    /// What apps observe.
    package nonisolated let list = PendingMutationList()

    /// The partition whose mutations `records` holds; `.none` before the first load.
    private var loaded: String??
    private var records: [QueuedMutation] = []
    private var sending: Set<String> = []
    private var busyScopes: Set<String> = []
    /// Mutations sent (a 2xx) whose removal from the outbox failed, by id: never listed or
    /// sent again by this process, and removed again at each replay until that succeeds.
    private var sentButStored: [String: QueuedMutation] = [:]
    /// The replay timer, while mutations wait.
    package var timer: Task<Void, Never>?
    /// The replay running now, and whether another pass was asked for while it ran.
    private var replaying: Task<Void, Never>?
    private var replayAgain = false

    package init(store: any CacheStore) {
        if let outbox = store as? any MutationOutbox {
            self.outbox = outbox
            isPrivate = false
        } else {
            outbox = MemoryCacheStore()
            isPrivate = true
        }
    }

    /// Reads the partition's outbox unless it is the one held; a store that fails leaves
    /// the list empty and throws.
    package func load(partition: String?) async throws {
        if loaded == .some(partition) { return }
        let found = try await outbox.queuedMutations(partition: partition)
        // Another load (or a switch) may have finished while this one read.
        if loaded == .some(partition) { return }
        loaded = .some(partition)
        records = found.filter { sentButStored[$0.id] == nil }.map(\.withoutBody)
        sending = []
        busyScopes = []
        publish()
    }

    /// Adds a mutation just enqueued; `true` when it may be sent at once (its scope is idle
    /// and holds nothing before it that waits), in which case it is marked as being sent.
    package func add(_ mutation: QueuedMutation) -> Bool {
        guard loaded == .some(mutation.partition) else { return false }
        let waitsBehind = busyScopes.contains(mutation.scope)
            || records.contains { $0.scope == mutation.scope && $0.failure == nil }
        records.append(mutation.withoutBody)
        if !waitsBehind {
            busyScopes.insert(mutation.scope)
            sending.insert(mutation.id)
        }
        publish()
        return !waitsBehind
    }

    /// The oldest waiting mutation of `scope` in `partition`, marked as being sent; `nil`
    /// when the scope is busy, has none, or another partition is loaded.
    package func claimNext(in scope: String, partition: String?) -> QueuedMutation? {
        guard loaded == .some(partition), !busyScopes.contains(scope),
            let next = records.first(where: { $0.scope == scope && $0.failure == nil })
        else { return nil }
        busyScopes.insert(scope)
        sending.insert(next.id)
        publish()
        return next
    }

    /// The scopes that hold waiting mutations, in the order of their oldest.
    package func waitingScopes() -> [String] {
        var seen: Set<String> = []
        return records.compactMap { $0.failure == nil && seen.insert($0.scope).inserted ? $0.scope : nil }
    }

    /// Whether any mutation waits (not failed).
    package var hasWaiting: Bool { records.contains { $0.failure == nil } }

    /// Ends the sending of `mutation`: replaced by `updated` (still waiting, or failed), or
    /// gone with `nil`; its scope is free again.
    package func finish(_ mutation: QueuedMutation, updated: QueuedMutation?) {
        // An attempt that outlived a switch of partition must not free a scope of the
        // partition loaded since, which may share its name.
        guard loaded == .some(mutation.partition) else { return }
        sending.remove(mutation.id)
        busyScopes.remove(mutation.scope)
        if let index = records.firstIndex(where: { $0.id == mutation.id }) {
            if let updated { records[index] = updated.withoutBody } else { records.remove(at: index) }
        }
        publish()
    }

    /// Remembers a mutation that was sent but whose outbox record could not be removed, so
    /// that it is not sent again (see `sentButStored`).
    package func keepRemoving(_ mutation: QueuedMutation) {
        sentButStored[mutation.id] = mutation.withoutBody
    }

    /// The sent mutations whose records are still to be removed.
    package var recordsToRemove: [QueuedMutation] { Array(sentButStored.values) }

    /// Forgets a sent mutation once its record is removed.
    package func recordRemoved(id: String) {
        sentButStored[id] = nil
    }

    /// The held mutation with `id`.
    package func record(id: String) -> QueuedMutation? {
        records.first { $0.id == id }
    }

    /// Replaces a held mutation that is not being sent (a retry clears its failure);
    /// `false` when it is gone or being sent.
    package func replace(_ mutation: QueuedMutation) -> Bool {
        guard !sending.contains(mutation.id), let index = records.firstIndex(where: { $0.id == mutation.id }) else {
            return false
        }
        records[index] = mutation.withoutBody
        publish()
        return true
    }

    /// Forgets a held mutation (discarded); one being sent finishes its attempt first.
    package func remove(id: String) {
        records.removeAll { $0.id == id }
        publish()
    }

    /// Forgets the held mutations when `covers` says their partition was removed from the
    /// store; returns them.
    package func removeAll(where covers: @Sendable (String?) -> Bool) -> [QueuedMutation] {
        guard let held = loaded, covers(held) else { return [] }
        let removed = records
        records = []
        publish()
        return removed
    }

    private func publish() {
        list.set(records.map { record in
            let state: PendingMutation.State =
                record.failure.map { .failed($0) } ?? (sending.contains(record.id) ? .sending : .queued)
            return PendingMutation(
                id: record.id, endpoint: record.endpoint, createdAt: record.createdAt, attempts: record.attempts,
                state: state)
        })
    }

    /// Runs `pass` unless a replay runs; then asks that one for another pass and waits for
    /// it, so that a caller returns only after a pass that started after its call.
    package func replay(_ pass: @escaping @Sendable () async -> Void) async {
        if let running = replaying {
            replayAgain = true
            await running.value
            return
        }
        let task = Task {
            repeat { await pass() } while self.continueReplay()
        }
        replaying = task
        await task.value
    }

    /// Whether another pass was asked for; if not, the replay ends here.
    private func continueReplay() -> Bool {
        if replayAgain {
            replayAgain = false
            return true
        }
        replaying = nil
        return false
    }

    /// The body bytes held in memory: none, bodies stay in the outbox (for tests).
    package var heldBodyBytes: Int { records.reduce(0) { $0 + ($1.body?.count ?? 0) } }

    /// Ends the replay timer.
    package func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    /// Sets the replay timer unless one runs; `make` is called only then.
    package func startTimer(_ make: () -> Task<Void, Never>) {
        guard timer == nil else { return }
        timer = make()
    }

    /// Clears the timer when it ends by itself.
    package func timerEnded() {
        timer = nil
    }
}

extension QueuedMutation {
    /// The record as the queue holds it: without its body, which is read back when sent.
    package var withoutBody: QueuedMutation {
        var light = self
        light.body = nil
        return light
    }
}
