import Foundation

/// A named set of calls an app asked to have available offline (`CachedClient.prefetch`),
/// with what each one stored: the record a `CachePinning` store keeps, so that a later
/// launch resumes the calls not done yet and eviction leaves the entries they stored.
///
/// A plan belongs to the partition (signed-in user) it was made under and is removed with
/// it. Its `calls` describe requests as the client encodes them (`Call.request`, opaque to
/// stores, never credentials); its pins are the keys of its calls (`pinnedKeys`).
public struct PrefetchPlan: Sendable, Hashable, Codable {
    /// One call of a plan: its request, the entry it pins, and whether it is done.
    public struct Call: Sendable, Hashable, Codable {
        /// The request and its endpoint as `CachedClient` encodes them; stores keep the bytes
        /// as they are.
        public var request: Data
        /// The entry the call stores, pinned from the moment the plan is saved (before the
        /// call is sent, so that no sweep takes its answer before the pin); `nil` when the
        /// client could not make its key.
        public var key: PinnedKey?
        /// Whether the call stored its answer; a resume sends the calls not done.
        public var isDone: Bool
        /// The body bytes the call stored.
        public var bytes: Int

        /// Creates a call record.
        public init(request: Data, key: PinnedKey?, isDone: Bool = false, bytes: Int = 0) {
            self.request = request
            self.key = key
            self.isDone = isDone
            self.bytes = bytes
        }
    }

    /// A `CacheKey` in a form a store can write: its four parts.
    public struct PinnedKey: Sendable, Hashable, Codable {
        /// `CacheKey.text`.
        public var text: String
        /// `CacheKey.endpoint`.
        public var endpoint: String
        /// `CacheKey.partition`.
        public var partition: String?
        /// `CacheKey.path`.
        public var path: String

        /// The parts of `key`.
        public init(_ key: CacheKey) {
            text = key.text
            endpoint = key.endpoint
            partition = key.partition
            path = key.path
        }

        /// The key these parts make.
        public var cacheKey: CacheKey {
            CacheKey(text: text, endpoint: endpoint, partition: partition, path: path)
        }
    }

    /// The app's name for the plan ("trip"); one plan per name and partition.
    public var name: String
    /// The partition it was made under (`nil`: signed out); removed with it.
    public var partition: String?
    /// The calls, in the order the app gave them.
    public var calls: [Call]
    /// When the plan was made, by the client's clock.
    public var createdAt: Date

    /// Creates a plan.
    public init(name: String, partition: String?, calls: [Call], createdAt: Date) {
        self.name = name
        self.partition = partition
        self.calls = calls
        self.createdAt = createdAt
    }

    /// The keys of the entries the plan pins: its calls', done or not.
    public var pinnedKeys: [CacheKey] {
        calls.compactMap { $0.key?.cacheKey }
    }
}
