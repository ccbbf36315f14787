@_spi(Generated) import CachedClientRuntime
import CachedClientFileStore
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The scripted workload of the disk-fault tests (`FileCacheStoreFaultTests`,
/// `FileCacheStoreCrashPointTests`): writes, reads, removals, a sign-out, enqueues, a replay
/// that sends and dequeues, and a discard, on a `FileCacheStore` opened by the workload. It
/// runs in the test process under a fault at one system call, or in a `StoreWriter` child
/// that is killed at one (`run(directory:faults:)`).
///
/// Each step reports `begin <step> <target>` before it starts and `<step> <target> ok|failed
/// [what it saw]` when it ends (a `set`'s target is `<key>:<value>`), so a test that lost the process at a call knows which step
/// was under way. Every byte of a value or a mutation follows from its name, so a test can
/// tell a whole value from a torn one.
enum FaultWorkload {
    /// The store's clock: fixed, so the same workload makes the same calls every time.
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let endpoint = "Faults.get"

    /// The keys, by name: `a` and `b` of the signed-in user, `s` shared, `u` of the user who signs out.
    static let keyNames = ["a", "b", "s", "u"]

    static func partition(ofKey name: String) -> String? {
        switch name {
        case "s": nil
        case "u": "user-2"
        default: "user-1"
        }
    }

    static func key(_ name: String) -> CacheKey {
        keys[name] ?? makeKey(name)
    }

    /// The keys, made once: a key's digest is a SHA-256, slow in a debug build.
    private static let keys = Dictionary(uniqueKeysWithValues: keyNames.map { ($0, makeKey($0)) })

    private static func makeKey(_ name: String) -> CacheKey {
        let partition = partition(ofKey: name)
        return CacheKey(
            text: "cachegen-key 1\nendpoint \(endpoint)\npath /\(name)\nquery \nitem \(name)\npartition \(partition ?? "*shared*")",
            endpoint: endpoint, partition: partition, path: "/" + name)
    }

    /// Value `name` (such as `a2`): its name on the first line, then a few KB that follow from it.
    static func entry(_ name: String) -> CacheEntry {
        entries[name] ?? makeEntry(name)
    }

    /// The values the workload and its checks use, made once (thousands of runs compare them).
    private static let entries = Dictionary(uniqueKeysWithValues: ["a1", "a2", "a9", "b1", "b2", "s1", "u1"].map { ($0, makeEntry($0)) })

    private static func makeEntry(_ name: String) -> CacheEntry {
        var body = Data((name + "\n").utf8)
        let seed = name.utf8.reduce(7) { $0 &* 31 &+ Int($1) }
        body.append(contentsOf: (0..<(2_000 + seed % 3_000)).map { UInt8(truncatingIfNeeded: $0 &* 7 ^ seed) })
        return CacheEntry(body: body, date: date, etag: "\"\(name)\"")
    }

    /// What a read found: the value's name, `miss`, or `torn` for anything that is not
    /// exactly a value this workload writes.
    static func name(of entry: CacheEntry?) -> String {
        guard let entry else { return "miss" }
        guard let newline = entry.body.firstIndex(of: 0x0A),
            let name = String(data: entry.body[entry.body.startIndex..<newline], encoding: .utf8),
            name.count <= 4, Self.entry(name) == entry
        else { return "torn" }
        return name
    }

    /// Mutation `id` (such as `m0`), in `partition`: a body of a few KB that follows from its id.
    static func mutation(_ id: String, partition: String?) -> QueuedMutation {
        guard var made = mutations[id] else { return makeMutation(id, partition: partition) }
        made.partition = partition
        return made
    }

    /// The mutations the workload and its checks use, made once.
    private static let mutations = Dictionary(uniqueKeysWithValues: ["m0", "m1", "m2", "n0", "r0"].map { ($0, makeMutation($0, partition: nil)) })

    private static func makeMutation(_ id: String, partition: String?) -> QueuedMutation {
        let seed = id.utf8.reduce(11) { $0 &* 31 &+ Int($1) }
        return QueuedMutation(
            id: id, partition: partition, scope: "/notes", endpoint: "Notes.create", method: "POST", path: "/notes",
            body: Data((0..<(1_500 + seed % 2_000)).map { UInt8(truncatingIfNeeded: $0 &* 13 ^ seed) }),
            contentType: "application/json", idempotencyKey: "key-" + id, createdAt: date)
    }

    /// Whether a mutation read back is exactly `id`'s, as enqueued or after `attempts` failed attempts.
    static func isWhole(_ found: QueuedMutation, attempts: Int) -> Bool {
        var expected = mutation(found.id, partition: found.partition)
        expected.sequence = found.sequence
        expected.attempts = attempts
        return found == expected
    }

    /// The partitions whose outboxes the workload uses.
    static let outboxPartitions: [String?] = ["user-1", "user-2"]

    /// Runs the script, reporting each step through `report`; returns the store, or `nil` if
    /// it could not be opened (the first step).
    @discardableResult
    static func run(directory: URL, report: (String) -> Void) async -> FileCacheStore? {
        func step(_ name: String, _ target: String, _ body: () async throws -> String?) async -> Bool {
            report("begin \(name) \(target)")
            do {
                let seen = try await body()
                report("\(name) \(target) ok" + (seen.map { " " + $0 } ?? ""))
                return true
            } catch {
                report("\(name) \(target) failed: \(error)")
                return false
            }
        }
        var opened: FileCacheStore?
        _ = await step("open", "store") {
            opened = try FileCacheStore(directory: directory, now: { date })
            return nil
        }
        guard let store = opened else { return nil }
        func set(_ key: String, _ value: String) async {
            _ = await step("set", key + ":" + value) {
                try await store.setEntry(entry(value), for: self.key(key))
                return nil
            }
        }
        func read(_ key: String) async {
            _ = await step("read", key) { name(of: try await store.entry(for: self.key(key))) }
        }
        // What each enqueue returned: a discard names the record as it was stored (its sequence).
        var enqueued: [String: QueuedMutation] = [:]
        func enqueue(_ id: String, _ partition: String) async {
            _ = await step("enqueue", id) {
                enqueued[id] = try await store.enqueueMutation(mutation(id, partition: partition))
                return nil
            }
        }

        await set("a", "a1")
        await set("b", "b1")
        await set("s", "s1")
        await enqueue("m0", "user-1")
        await enqueue("m1", "user-1")
        await read("a")
        await set("a", "a2")
        await enqueue("m2", "user-1")
        await set("u", "u1")
        await enqueue("n0", "user-2")
        // A replay: lists the outbox, sends the first mutation (a failed attempt first,
        // recorded in its file), then dequeues it.
        var listed: [QueuedMutation] = []
        _ = await step("list", "user-1") {
            listed = try await store.queuedMutations(partition: "user-1")
            return listed.isEmpty ? "none" : listed.map { $0.failure == nil ? $0.id : $0.id + "!" }.joined(separator: ",")
        }
        if let first = listed.first(where: { $0.failure == nil }) {
            var attempted = first
            attempted.attempts += 1
            _ = await step("update", first.id) {
                try await store.updateMutation(attempted)
                return nil
            }
            _ = await step("dequeue", first.id) {
                try await store.removeMutation(first)
                return nil
            }
        }
        _ = await step("remove", "b") {
            try await store.removeEntry(for: key("b"))
            return nil
        }
        // A removal moves the removal count, and the log names it (or says it does not know,
        // which clients take as everything), whatever fault it met.
        func counted(_ name: String, _ key: String, _ body: () async throws -> Void) async {
            let before = store.removalCount
            _ = await step(name, key == "u" ? "user-2" : key) {
                try await body()
                return nil
            }
            _ = await step("count", key) {
                guard store.removalCount >= before &+ 2 else { return "stale" }
                guard let scopes = store.removals(since: before) else { return "moved" }
                return scopes.contains { $0.covers(self.key(key)) } ? "moved" : "narrow"
            }
        }
        await counted("removePath", "s") { try await store.removeAll(endpoint: endpoint, path: "/s") }
        _ = await step("discard", "m2") {
            try await store.removeMutation(enqueued["m2"] ?? mutation("m2", partition: "user-1"))
            return nil
        }
        await read("a")
        await read("b")
        await read("s")
        await counted("removePartition", "u") { try await store.removeAll(partition: "user-2") }
        await read("u")
        await set("b", "b2")
        await read("b")
        return store
    }
}

extension FaultWorkload {
    /// The child's mode: runs the workload with `fault` at call `at` (`0`: none), printing
    /// each report line at once, then `calls <count>`; a `kill` fault ends it before that.
    static func runChild(directory: String, at: Int, fault: SystemCallFaults.Fault) async {
        let faults = SystemCallFaults(at: at == 0 ? nil : at, fault: fault)
        await POSIX.$faults.withValue(faults) {
            await run(directory: URL(fileURLWithPath: directory, isDirectory: true)) { say($0) }
        }
        say("calls \(faults.count)")
    }

    /// The faults a child is told by name: `kill` or `short-write-then-kill`.
    static func fault(named name: String) -> SystemCallFaults.Fault? {
        switch name {
        case "kill": .kill
        case "short-write-then-kill": .shortWriteThenKill
        default: nil
        }
    }

    /// A line on standard output, written at once with one `write` (not through the store's
    /// wrapper, so it is not counted).
    private static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
    }
}
