import CachedClientRuntime
import Foundation

/// The rules of `CacheStore` (and of `CacheStoreLeasing`) as named checks, so that any store,
/// ours or an app's, proves it keeps them in a few lines of its own tests:
///
/// ```swift
/// @Test(arguments: CacheStoreConformance.checks)
/// func conforms(_ check: CacheStoreConformance.Check) async throws {
///     try await check.run(limits: [.maxAge]) { setup in
///         try MyStore(maxAge: setup.maxAge, now: setup.now)
///     }
/// }
/// ```
///
/// Each check makes a fresh store through the closure, runs against it and throws a
/// `CacheStoreConformance.Failure` naming the check, the rule broken and the line of the
/// check that found it. The module does not import a test framework: any runner that can
/// call an `async throws` function runs the suite, and apps that only use `CachedClientTesting`
/// for previews pay nothing for it.
public enum CacheStoreConformance {
    /// The checks every `CacheStore` passes.
    public static var checks: [Check] {
        entryChecks + removalChecks + removalLogChecks + limitChecks + concurrencyChecks + clientChecks
    }

    /// The checks a store that adopts `CacheStoreLeasing` passes as well.
    public static var leasingChecks: [Check] {
        leasing + collapsing
    }

    /// Limits a store can be made with; a store says which it supports, and the checks of a
    /// limit it does not support report `Outcome.notApplicable`.
    public struct Limits: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates a set from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The store drops entries stored longer ago than `Setup.maxAge` (and reports it as
        /// `CacheStore.maxAge`).
        public static let maxAge = Limits(rawValue: 1 << 0)
        /// The store trims itself, least recently used entries first, to `Setup.maxBytes`
        /// of `totalSize()` (after the `trim` closure, if it trims in the background).
        public static let maxBytes = Limits(rawValue: 1 << 1)
    }

    /// What a check asks the store under test to be made with.
    public struct Setup: Sendable {
        /// The age limit to make the store with; `nil` for none.
        public var maxAge: TimeInterval?
        /// The size limit to make the store with; `nil` for none.
        public var maxBytes: Int?
        /// The clock the store must measure ages with (limits and, for leasing stores, claim
        /// expiry); it moves only when the check moves it.
        public var now: @Sendable () -> Date

        /// Creates a setup; checks make these.
        public init(maxAge: TimeInterval? = nil, maxBytes: Int? = nil, now: @escaping @Sendable () -> Date) {
            self.maxAge = maxAge
            self.maxBytes = maxBytes
            self.now = now
        }
    }

    /// How a check ended when it did not fail.
    public enum Outcome: Sendable, Equatable {
        /// The store kept the rule.
        case passed
        /// The rule is about a limit the store was not declared to support; nothing was checked.
        case notApplicable(String)
    }

    /// A rule the store broke: which check, what it found, and where in the suite.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The check's name.
        public var check: String
        /// What was expected and what the store did.
        public var message: String
        /// The suite's source file of the failed expectation.
        public var file: String
        /// Its line.
        public var line: Int

        /// Creates a failure; checks make these.
        public init(check: String, message: String, file: String, line: Int) {
            self.check = check
            self.message = message
            self.file = file
            self.line = line
        }

        /// `CacheStore conformance check 'keyTextIsCompared' failed: … (CacheStoreConformance+Entries.swift:42)`.
        public var description: String {
            "CacheStore conformance check '\(check)' failed: \(message) (\(file):\(line))"
        }
    }

    /// One rule of the contract, runnable against any store.
    public struct Check: Sendable, Identifiable, CustomStringConvertible {
        /// A stable name, such as `removeAllPartitionKeepsOtherPartitions`; also the test
        /// argument's identity.
        public let id: String
        /// The rule in one sentence.
        public let summary: String
        let body: @Sendable (Context) async throws -> Void

        init(_ id: String, _ summary: String, _ body: @escaping @Sendable (Context) async throws -> Void) {
            self.id = id
            self.summary = summary
            self.body = body
        }

        /// The name, which test runners show for each argument.
        public var description: String { id }

        /// Runs the check against stores `makeStore` makes (most checks make one; each
        /// call must return a new, empty store, which the caller may delete afterwards).
        ///
        /// - Parameters:
        ///   - limits: the limits the store honours when `Setup` asks for them; checks of
        ///     others return `.notApplicable`.
        ///   - makeStore: makes an empty store as `Setup` asks (its limits and its clock).
        ///   - trim: applies the store's limits now, for a store that enforces them in the
        ///     background (`FileCacheStore.trim()`); the default does nothing.
        /// - Throws: `Failure` when the store breaks the rule, or what the store threw.
        @discardableResult
        public func run<Store: CacheStore>(
            limits: Limits = [],
            makeStore: @escaping @Sendable (Setup) async throws -> Store,
            trim: @escaping @Sendable (Store) async throws -> Void = { _ in }
        ) async throws -> Outcome {
            let context = Context(
                check: id, limits: limits,
                makeStore: { try await makeStore($0) },
                trim: { store in
                    guard let store = store as? Store else { return }
                    try await trim(store)
                })
            do {
                try await body(context)
                return .passed
            } catch let skip as NotApplicable {
                return .notApplicable(skip.reason)
            }
        }
    }

    /// Thrown by a check of a limit the store does not support; `run` turns it into an outcome.
    struct NotApplicable: Error {
        var reason: String
    }
}
