import Foundation

@_spi(Generated) @testable import CachedClientRuntime
@testable import StoreWriter

/// What the store may hold after a `FaultWorkload` run, from the run's reports: for each key
/// the values a read may return, for each mutation whether it may be in the outbox and with
/// how many attempts. A step that failed may have left the old state or none (a failed write
/// is a miss later, never torn bytes; a failed enqueue leaves nothing); a step under way when
/// the process was killed may have happened or not. `check(store:)` compares a store with it.
struct DiskFaultModel {
    /// Allowed read results per key: value names, and `miss`.
    private(set) var values: [String: Set<String>] = Dictionary(uniqueKeysWithValues: FaultWorkload.keyNames.map { ($0, ["miss"]) })
    /// Per mutation: whether it may be present (`true`) or absent (`false`).
    private(set) var presence: [String: Set<Bool>] = [:]
    /// Per mutation: the attempts its record may show.
    private(set) var attempts: [String: Set<Int>] = [:]
    /// What the reports themselves showed wrong: a torn value read, a value that should not be there.
    private(set) var violations: [String] = []
    /// Whether the store opened.
    private(set) var opened = false
    /// The step begun but not ended (the process died in it), if any.
    private(set) var interrupted: String?
    /// Steps that failed.
    private(set) var failedSteps = 0

    /// The model after `lines`, the reports of one run in order.
    init(_ lines: [String]) {
        var begun: (step: String, target: String)?
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "calls" { continue }
            if words.first == "begin", words.count == 3 {
                begun = (words[1], words[2])
                continue
            }
            guard words.count >= 3, let begin = begun, words[0] == begin.step, words[1] == begin.target else {
                violations.append("a report out of order: \(line)")
                continue
            }
            begun = nil
            let ok = words[2] == "ok"  // else `failed: <the error>`
            if !ok { failedSteps += 1 }
            apply(step: words[0], target: words[1], outcome: ok ? .ok(words.count > 3 ? words[3] : nil) : .failed)
        }
        if let begun {
            interrupted = "\(begun.step) \(begun.target)"
            apply(step: begun.step, target: begun.target, outcome: .unknown)
        }
    }

    enum Outcome {
        case ok(String?)
        case failed
        case unknown
    }

    private mutating func apply(step: String, target: String, outcome: Outcome) {
        if step == "set" {
            let parts = target.split(separator: ":").map(String.init)
            guard parts.count == 2 else { return violations.append("an unknown report: \(step) \(target)") }
            switch outcome {
            case .ok: values[parts[0]] = [parts[1]]
            case .failed: values[parts[0], default: []].insert("miss")
            case .unknown: values[parts[0], default: []].formUnion(["miss", parts[1]])
            }
            return
        }
        switch (step, outcome) {
        case ("open", .ok): opened = true
        case ("open", _): break
        case ("read", .ok(let seen?)):
            if seen == "torn" || !(values[target] ?? []).contains(seen) {
                violations.append("read \(target) returned \(seen), allowed \(Self.sorted(values[target]))")
            }
            values[target] = [seen]
        case ("read", _): break
        case ("count", .ok(let seen?)):
            // After a removal, whether it ended or failed: `stale` (the count did not move) or
            // `narrow` (the log names a scope that does not cover it) would let a client keep a
            // removed value in memory.
            if seen != "moved" { violations.append("the removal of \(target) left the removal count \(seen)") }
        case ("count", _): break
        case ("remove", .ok), ("removePath", .ok): values[target] = ["miss"]
        case ("remove", _), ("removePath", _): values[target, default: []].insert("miss")
        case ("removePartition", let outcome):
            for key in FaultWorkload.keyNames where FaultWorkload.partition(ofKey: key) == target {
                if case .ok = outcome { values[key] = ["miss"] } else { values[key, default: []].insert("miss") }
            }
            for id in presence.keys where Self.partition(ofMutation: id) == target {
                if case .ok = outcome { presence[id] = [false] } else { presence[id, default: []].insert(false) }
            }
        case ("enqueue", .ok):
            presence[target] = [true]
            attempts[target] = [0]
        case ("enqueue", .failed): presence[target] = [false]
        case ("enqueue", .unknown):
            presence[target] = [false, true]
            attempts[target] = [0]
        case ("list", .ok(let seen?)):
            let listed = seen == "none" ? [] : seen.split(separator: ",").map(String.init)
            checkListing(listed, partition: target)
        case ("list", _): break
        case ("update", .ok): attempts[target] = [1]
        case ("update", .failed): break
        case ("update", .unknown): attempts[target, default: []].insert(1)
        case ("dequeue", .ok), ("discard", .ok): presence[target] = [false]
        case ("dequeue", .failed), ("discard", .failed): break
        case ("dequeue", .unknown), ("discard", .unknown): presence[target, default: []].insert(false)
        default: violations.append("an unknown report: \(step) \(target)")
        }
    }

    /// `m…` of the signed-in user, `n…` of the user who signs out, `r…` made by the recovery.
    static func partition(ofMutation id: String) -> String? {
        id.hasPrefix("n") ? "user-2" : "user-1"
    }

    /// Checks a listing of `partition`'s outbox against the model, then narrows the model to it.
    mutating func checkListing(_ listed: [String], partition: String) {
        for id in Set(listed) where listed.filter({ $0 == id }).count > 1 {
            violations.append("\(id) listed \(listed.filter { $0 == id }.count) times")
        }
        for id in listed {
            if id.hasSuffix("!") {
                violations.append("\(id.dropLast()) listed as failed (unreadable)")
            } else if !(presence[id] ?? []).contains(true) {
                violations.append("\(id) listed, but it was never durably enqueued or was removed")
            }
        }
        for (id, allowed) in presence where Self.partition(ofMutation: id) == partition {
            let isListed = listed.contains(id)
            if allowed == [true], !isListed { violations.append("\(id) lost: durably enqueued but not listed") }
            presence[id] = [isListed]
        }
    }

    /// Compares what `store` holds with the model: the violations found (none when it matches).
    func check(store: FileCacheStore) async -> [String] {
        var found: [String] = []
        for key in FaultWorkload.keyNames {
            do {
                let seen = FaultWorkload.name(of: try await store.entry(for: FaultWorkload.key(key)))
                if seen == "torn" || !(values[key] ?? []).contains(seen) {
                    found.append("key \(key) holds \(seen), allowed \(Self.sorted(values[key]))")
                }
            } catch {
                found.append("key \(key) could not be read after the fault went: \(error)")
            }
        }
        for partition in FaultWorkload.outboxPartitions {
            let listed: [QueuedMutation]
            do {
                listed = try await store.queuedMutations(partition: partition)
            } catch {
                found.append("the outbox of \(partition ?? "nobody") could not be read after the fault went: \(error)")
                continue
            }
            let ids = listed.map(\.id)
            for mutation in listed {
                if ids.filter({ $0 == mutation.id }).count > 1 { found.append("\(mutation.id) held twice") }
                guard (presence[mutation.id] ?? []).contains(true) else {
                    found.append("\(mutation.id) held, but it was never durably enqueued or was removed")
                    continue
                }
                let allowed = attempts[mutation.id] ?? [0]
                if mutation.failure != nil || !allowed.contains(where: { FaultWorkload.isWhole(mutation, attempts: $0) }) {
                    found.append("\(mutation.id) is torn or unreadable: \(mutation.failure?.description ?? "wrong content")")
                }
            }
            for (id, allowed) in presence where Self.partition(ofMutation: id) == partition && allowed == [true] {
                if !ids.contains(id) { found.append("\(id) lost: durably enqueued but not held") }
            }
        }
        return found
    }

    private static func sorted(_ set: Set<String>?) -> String {
        (set ?? []).sorted().joined(separator: "|")
    }
}
