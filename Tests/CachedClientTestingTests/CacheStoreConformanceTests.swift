import CachedClientTestSupport
import CachedClientTesting
import Foundation
import Testing

@testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

/// Both built-in stores, and the leasing test double, run the whole conformance suite, one
/// test per check; stores broken on purpose show that each kind of check can fail.
@Suite("CacheStore conformance")
struct CacheStoreConformanceTests {
    @Test(arguments: CacheStoreConformance.checks)
    func fileCacheStore(_ check: CacheStoreConformance.Check) async throws {
        let parent = FileManager.default.temporaryDirectory.appending(path: "cachegen-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let outcome = try await check.run(limits: [.maxAge, .maxBytes]) { setup in
            try FileCacheStore(
                directory: parent.appending(path: UUID().uuidString), maxBytes: setup.maxBytes, maxAge: setup.maxAge,
                now: setup.now)
        } trim: { store in
            await store.trim()
        }
        #expect(outcome == .passed)
    }

    @Test(arguments: CacheStoreConformance.checks)
    func memoryCacheStore(_ check: CacheStoreConformance.Check) async throws {
        let outcome = try await check.run { _ in MemoryCacheStore() }
        if check.id.hasPrefix("maxAge") || check.id.hasPrefix("maxBytes") {
            #expect(outcome != .passed)  // MemoryCacheStore has no limits
        } else {
            #expect(outcome == .passed)
        }
    }

    @Test(arguments: CacheStoreConformance.checks + CacheStoreConformance.leasingChecks)
    func leasingTestStore(_ check: CacheStoreConformance.Check) async throws {
        let outcome = try await check.run { setup in LeasingTestStore(now: setup.now) }
        if check.id.hasPrefix("maxAge") || check.id.hasPrefix("maxBytes") {
            #expect(outcome != .passed)
        } else {
            #expect(outcome == .passed)
        }
    }

    @Test func checkNamesAreUniqueAndTheCountsAreKnown() {
        let ids = (CacheStoreConformance.checks + CacheStoreConformance.leasingChecks).map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(CacheStoreConformance.checks.count == 26)
        #expect(CacheStoreConformance.leasingChecks.count == 7)
    }

    /// A check of a limit the store was not declared to support says so instead of passing.
    @Test func aLimitTheStoreDoesNotSupportIsNotApplicable() async throws {
        let check = try #require(CacheStoreConformance.checks.first { $0.id == "maxAgeDropsOlderEntries" })
        let outcome = try await check.run { _ in MemoryCacheStore() }
        #expect(outcome == .notApplicable("the store was not declared to support maxAge (run(limits:))"))
    }

    // MARK: - The suite catches broken stores

    /// Runs one check against a broken store and returns its failure.
    static func failure(
        of id: String, limits: CacheStoreConformance.Limits = [], _ flaw: BrokenStore.Flaw
    ) async throws -> CacheStoreConformance.Failure {
        let check = try #require(CacheStoreConformance.checks.first { $0.id == id } ?? CacheStoreConformance.leasingChecks.first { $0.id == id })
        do {
            try await check.run(limits: limits) { setup in BrokenStore(flaw, now: setup.now) }
        } catch let failure as CacheStoreConformance.Failure {
            return failure
        }
        throw CheckPassed(check: id, flaw: flaw)
    }

    /// A check passed a store that breaks its rule.
    struct CheckPassed: Error {
        var check: String
        var flaw: BrokenStore.Flaw
    }

    @Test func aStoreThatDropsValidatorsFailsTheRoundTrip() async throws {
        let failure = try await Self.failure(of: "everyFieldRoundTrips", .dropsValidators)
        #expect(failure.check == "everyFieldRoundTrips")
        #expect(failure.message.hasPrefix("every field set: expected entry(10 bytes \"{\"id\":\"1\"}\", date 800000000.12345"))
        #expect(failure.message.contains("found entry(10 bytes \"{\"id\":\"1\"}\""))
        #expect(failure.message.contains("etag nil, lastModified nil"))
        #expect(failure.file == "CacheStoreConformance+Entries.swift")
        #expect(failure.description.hasPrefix("CacheStore conformance check 'everyFieldRoundTrips' failed: every field set: expected"))
    }

    @Test func aStoreKeyedByPathFailsTheKeyChecks() async throws {
        let failure = try await Self.failure(of: "keyTextIsComparedExactly", .keysByPath)
        #expect(failure.message.hasPrefix("key 0 of 5 sharing a path: expected entry(7 bytes \"entry 0\""))
        _ = try await Self.failure(of: "looselyEqualTextsStayApart", .keysCaseInsensitively)
    }

    @Test func aStoreWhoseRemovalCountNeverMovesFailsTheRemovalChecks() async throws {
        let counted = try await Self.failure(of: "removalCountGrowsWithEveryRemoveAll", .removalCountStays)
        #expect(counted.message == "removalCount stayed 0 after removeAll(endpoint:path:)")
        let seen = try await Self.failure(of: "anotherClientsSignOutIsSeen", .removalCountStays)
        #expect(seen.message.hasPrefix("after client.removeAll(partition:), a client holding the value in memory still served it (cached)"))
    }

    @Test func aStoreThatNamesTheWrongScopeFailsTheRemovalLogChecks() async throws {
        let named = try await Self.failure(of: "removalsSinceNameEveryRemoval", .namesTheWrongScope)
        #expect(
            named.message.hasPrefix(
                "removals(since:) after removeAll(partition: \"alice\") names no scope covering AccountRepository.getAccount /accounts/1 alice (it said [partition "))
        #expect(named.file == "CacheStoreConformance+RemovalLog.swift")
        let underWay = try await Self.failure(of: "removalsSinceCoverARemovalUnderWay", .namesTheWrongScope)
        #expect(underWay.message.hasPrefix("removals(since:) after removeAll(partition: \"alice\")"))
    }

    @Test func aStoreThatIgnoresPathRemovalFailsIt() async throws {
        let failure = try await Self.failure(of: "removeAllEndpointPathRemovesThatPathEverywhere", .ignoresPathRemoval)
        #expect(failure.message.hasPrefix("removeAll(endpoint:path:) left AccountRepository.getAccount /accounts/1 alice"))
    }

    @Test func aStoreThatClaimsWithoutAtomicityFailsTheLeasingChecks() async throws {
        let failure = try await Self.failure(of: "concurrentClaimsHaveOneWinner", .claimsCheckThenSet)
        #expect(failure.message.hasSuffix("of 32 concurrent claims of one key succeeded (round 0)"))
        let released = try await Self.failure(of: "releasingAnExpiredLeaseKeepsTheNewHolder", .releasesAnyClaim)
        #expect(released.message == "releasing an expired lease ended the claim that replaced it")
    }
}

/// A store with one flaw, for showing that the suite notices it.
final class BrokenStore: CacheStoreLeasing {
    enum Flaw: Sendable {
        case dropsValidators, keysByPath, keysCaseInsensitively, removalCountStays, ignoresPathRemoval, namesTheWrongScope
        case claimsCheckThenSet, releasesAnyClaim
    }

    private let flaw: Flaw
    private let memory = MemoryCacheStore()
    private let now: @Sendable () -> Date
    private let claims = Locked<[String: (token: String, expires: Date)]>([:])
    /// Claims that have looked and not yet written, for `claimsCheckThenSet`: the first waits
    /// for a second to look, so both see the key free, every time.
    private let lookers = Locked<(count: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(_ flaw: Flaw, now: @escaping @Sendable () -> Date) {
        self.flaw = flaw
        self.now = now
    }

    private func stored(_ key: CacheKey) -> CacheKey {
        switch flaw {
        case .keysByPath: CacheKey(text: key.path, endpoint: key.endpoint, partition: key.partition, path: key.path)
        case .keysCaseInsensitively: CacheKey(text: key.text.lowercased(), endpoint: key.endpoint, partition: key.partition, path: key.path)
        default: key
        }
    }

    func entry(for key: CacheKey) async throws -> CacheEntry? { memory.entry(for: stored(key)) }

    func setEntry(_ entry: CacheEntry, for key: CacheKey) async throws {
        var entry = entry
        if flaw == .dropsValidators {
            entry.etag = nil
            entry.lastModified = nil
        }
        memory.setEntry(entry, for: stored(key))
    }

    func removeEntry(for key: CacheKey) async throws { memory.removeEntry(for: stored(key)) }
    func removeAll() async throws { memory.removeAll() }
    func removeAll(partition: String) async throws { memory.removeAll(partition: partition) }
    func removeAll(endpoint: String) async throws { memory.removeAll(endpoint: endpoint) }
    func removeAll(endpoint: String, path: String) async throws {
        if flaw != .ignoresPathRemoval { try await memory.removeAll(endpoint: endpoint, path: path) }
    }
    func totalSize() async throws -> Int { memory.totalSize() }
    func entryCount() async throws -> Int { memory.entryCount() }
    var removalCount: UInt64 { flaw == .removalCountStays ? 0 : memory.removalCount }
    func removals(since count: UInt64) -> [RemovalScope]? {
        flaw == .namesTheWrongScope ? [.partition("nobody")] : memory.removals(since: count)
    }

    func claim(_ key: CacheKey, for duration: TimeInterval) async throws -> CacheLease? {
        let now = self.now()
        if flaw == .claimsCheckThenSet {
            let held = claims.withLock { $0[key.text].map { $0.expires > now } ?? false }
            if held { return nil }
            await withCheckedContinuation { continuation in
                let ready = lookers.withLock { lookers -> [CheckedContinuation<Void, Never>] in
                    lookers.count += 1
                    guard lookers.count >= 2 else {
                        lookers.waiting.append(continuation)
                        return []
                    }
                    defer { lookers.waiting = [] }
                    return lookers.waiting + [continuation]
                }
                for waiter in ready { waiter.resume() }
            }
        }
        return claims.withLock { claims in
            if flaw != .claimsCheckThenSet, let held = claims[key.text], held.expires > now { return nil }
            let token = UUID().uuidString
            claims[key.text] = (token, now.addingTimeInterval(duration))
            return CacheLease(key: key, token: token)
        }
    }

    func release(_ lease: CacheLease) async throws {
        claims.withLock { claims in
            if flaw == .releasesAnyClaim || claims[lease.key.text]?.token == lease.token { claims[lease.key.text] = nil }
        }
    }
}
