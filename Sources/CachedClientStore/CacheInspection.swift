import Foundation

/// What a cache holds, for a debug screen or `cachegen-cache inspect`: per partition and
/// endpoint the entry count, size, ages, freshness and pins, the mutations waiting in the
/// outbox, and the files that could not be read.
///
/// It never holds a credential: no request header, no query and no idempotency key of a
/// queued mutation, and no key text (which holds key headers and query values). Bodies of
/// entries and of queued mutations are in `values`, and only when asked for
/// (`Options.includeValues`).
public struct CacheInspection: Sendable, Equatable {
    /// Whose entries: everybody's, the signed-out user's, or one partition's.
    public enum Partition: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Entries of endpoints with `"scope": "shared"`.
        case shared
        /// User-scoped entries and mutations made while no partition was set.
        case signedOut
        /// One partition (signed-in user), by the name the app gave it.
        case user(String)

        /// `shared`, `signed-out` or the partition's name.
        public var description: String {
            switch self {
            case .shared: "shared"
            case .signedOut: "signed-out"
            case .user(let name): name
            }
        }
    }

    /// The entries of one endpoint in one partition.
    public struct Group: Sendable, Equatable {
        /// The partition.
        public var partition: Partition
        /// `Repository.method` of the endpoint.
        public var endpoint: String
        /// The number of entries.
        public var entries: Int
        /// Their bytes on disk (headers included) or in memory.
        public var bytes: Int
        /// The stored date of the oldest entry.
        public var oldest: Date
        /// The stored date of the newest entry.
        public var newest: Date
        /// Entries fresh at `CacheInspection.date`.
        public var fresh: Int
        /// Entries stale at `CacheInspection.date`.
        public var stale: Int
        /// Entries whose freshness is unknown: no rule for the endpoint was given and the
        /// server stated no lifetime.
        public var unknownFreshness: Int
        /// Entries pinned ("available offline"), which eviction and age limits leave.
        public var pinned: Int
    }

    /// One mutation waiting in an outbox: what it is, never its headers, query or
    /// idempotency key.
    public struct Mutation: Sendable, Equatable {
        /// The partition it was made under (`.signedOut` without one).
        public var partition: Partition
        /// `Repository.method` of the endpoint; empty for a record that could not be read.
        public var endpoint: String
        /// The HTTP method.
        public var method: String
        /// When it was made.
        public var createdAt: Date
        /// Attempts so far that reached no final answer.
        public var attempts: Int
        /// The bytes of its body (0 without one).
        public var bodyBytes: Int
        /// Why it failed for good, or `nil` while it waits to be sent.
        public var failure: String?
        /// Its place in the partition's outbox.
        public var sequence: UInt64
        /// Its id (`PendingMutation.id`).
        public var id: String
    }

    /// A file that is not a readable entry or outbox record: the store treats it as a miss
    /// (or a failed mutation) and removes it when it reads it.
    public struct UnreadableFile: Sendable, Equatable {
        /// The path inside the store's folder; made of hashes only.
        public var file: String
        /// Why it cannot be read.
        public var reason: String
    }

    /// A body, listed only with `Options.includeValues`.
    public struct StoredValue: Sendable, Equatable {
        /// What holds it.
        public enum Kind: String, Sendable {
            /// A cache entry's response body.
            case entry
            /// A queued mutation's request body.
            case mutation
        }

        /// An entry's or a mutation's.
        public var kind: Kind
        /// The partition.
        public var partition: Partition
        /// `Repository.method` of the endpoint.
        public var endpoint: String
        /// The resolved path of the entry or mutation.
        public var path: String
        /// The first 16 digits of an entry's key digest, or a mutation's id.
        public var name: String
        /// The body as stored.
        public var body: Data
    }

    /// What to inspect, and how.
    public struct Options: Sendable {
        /// The moment ages and freshness are judged at.
        public var now: Date
        /// Whether to list bodies in `values`. Credentials are never listed.
        public var includeValues: Bool
        /// Seconds an entry of the endpoint (by `Repository.method`) stays fresh, for
        /// endpoints whose entries carry no lifetime stated by the server.
        public var ttls: [String: TimeInterval]

        /// Options for an inspection at `now`, without bodies.
        public init(now: Date = Date(), includeValues: Bool = false, ttls: [String: TimeInterval] = [:]) {
            self.now = now
            self.includeValues = includeValues
            self.ttls = ttls
        }
    }

    /// The moment ages and freshness were judged at.
    public var date: Date
    /// Per partition and endpoint: shared first, then signed-out, then partitions by name;
    /// endpoints by name.
    public var groups: [Group]
    /// Waiting and failed mutations, by partition and then in outbox order.
    public var mutations: [Mutation]
    /// Files that could not be read, by path.
    public var unreadable: [UnreadableFile]
    /// Bodies, only with `Options.includeValues`; empty otherwise.
    public var values: [StoredValue]

    /// The memberwise initializer, for the stores.
    package init(
        date: Date, groups: [Group], mutations: [Mutation], unreadable: [UnreadableFile], values: [StoredValue]
    ) {
        self.date = date
        self.groups = groups
        self.mutations = mutations
        self.unreadable = unreadable
        self.values = values
    }
}
