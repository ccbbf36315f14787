@_spi(Generated) import CachedClientValues
import Foundation

extension CacheInspection {
    /// Collects what a store finds, entry by entry, into an inspection; every store's
    /// inspection goes through it, so they count, judge and sort alike.
    package struct Builder {
        /// What was asked for.
        package let options: Options
        /// The digests (`CacheKey.digest`) of pinned entries.
        package var pinned: Set<String> = []
        private var groups: [GroupKey: Group] = [:]
        private var mutations: [Mutation] = []
        private var unreadable: [UnreadableFile] = []
        private var values: [StoredValue] = []

        private struct GroupKey: Hashable {
            var partition: Partition
            var endpoint: String
        }

        /// A builder for `options`.
        package init(options: Options) {
            self.options = options
        }

        /// Adds one readable entry.
        ///
        /// - Parameters:
        ///   - keyText: its key's text, from which the partition and path are read (never kept).
        ///   - folderPartition: the partition when the key text names none (a key not made
        ///     by `CachedClient`): `nil` for shared.
        ///   - body: the body, needed only when bodies were asked for (`options.includeValues`).
        package mutating func addEntry(
            keyText: String, folderPartition: String?, endpoint: String, digest: String, bytes: Int, date: Date,
            freshness: ServerFreshness?, body: Data?
        ) {
            let fields = Self.fields(of: keyText)
            let partition = fields.partition ?? folderPartition.map(Partition.user) ?? .shared
            let key = GroupKey(partition: partition, endpoint: endpoint)
            var group =
                groups[key]
                ?? Group(
                    partition: partition, endpoint: endpoint, entries: 0, bytes: 0, oldest: date, newest: date, fresh: 0,
                    stale: 0, unknownFreshness: 0, pinned: 0)
            group.entries += 1
            group.bytes += bytes
            group.oldest = min(group.oldest, date)
            group.newest = max(group.newest, date)
            switch isFresh(date: date, server: freshness, ttl: options.ttls[endpoint]) {
            case true?: group.fresh += 1
            case false?: group.stale += 1
            case nil: group.unknownFreshness += 1
            }
            if pinned.contains(digest) { group.pinned += 1 }
            groups[key] = group
            if options.includeValues, let body {
                values.append(StoredValue(
                    kind: .entry, partition: partition, endpoint: endpoint, path: fields.path ?? "",
                    name: String(digest.prefix(16)), body: body))
            }
        }

        /// Adds one queued mutation; its headers, query and idempotency key are not kept.
        package mutating func addMutation(_ mutation: QueuedMutation) {
            let partition = mutation.partition.map(Partition.user) ?? .signedOut
            mutations.append(Mutation(
                partition: partition, endpoint: mutation.endpoint, method: mutation.method, createdAt: mutation.createdAt,
                attempts: mutation.attempts, bodyBytes: mutation.body?.count ?? 0, failure: mutation.failure?.message,
                sequence: mutation.sequence, id: mutation.id))
            if options.includeValues, let body = mutation.body {
                values.append(StoredValue(
                    kind: .mutation, partition: partition, endpoint: mutation.endpoint, path: mutation.path,
                    name: mutation.id, body: body))
            }
        }

        /// Adds a file that could not be read.
        package mutating func addUnreadable(file: String, reason: String) {
            unreadable.append(UnreadableFile(file: file, reason: reason))
        }

        /// The inspection, sorted.
        package func finish() -> CacheInspection {
            let groups = groups.values.sorted { ($0.partition, $0.endpoint) < ($1.partition, $1.endpoint) }
            let mutations = mutations.sorted { ($0.partition, $0.sequence, $0.id) < ($1.partition, $1.sequence, $1.id) }
            let unreadable = unreadable.sorted { $0.file < $1.file }
            let values = values.sorted {
                ($0.kind.rawValue, $0.partition, $0.endpoint, $0.path, $0.name)
                    < ($1.kind.rawValue, $1.partition, $1.endpoint, $1.path, $1.name)
            }
            return CacheInspection(
                date: options.now, groups: groups, mutations: mutations, unreadable: unreadable, values: values)
        }

        /// Fresh or stale at `options.now`: by the endpoint's `ttl` when one was given, else by
        /// the lifetime the server stated; `nil` when neither is known. An entry dated in the
        /// future (the clock was set back) is stale, as calls judge it.
        private func isFresh(date: Date, server: ServerFreshness?, ttl: TimeInterval?) -> Bool? {
            let resident = options.now.timeIntervalSince(date)
            if let ttl { return resident >= 0 && resident < ttl }
            guard let server else { return nil }
            if server.noCache { return false }
            guard let lifetime = server.lifetime else { return nil }
            return resident >= 0 && server.initialAge + resident < lifetime
        }

        /// The partition and path lines of a key's text (`CacheKey+Request`); `nil` for a
        /// line that is not there.
        private static func fields(of keyText: String) -> (partition: Partition?, path: String?) {
            var partition: Partition?
            var path: String?
            for line in keyText.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("partition ") {
                    let value = String(line.dropFirst("partition ".count))
                    switch value {
                    case "*shared*": partition = .shared
                    case "*signed-out*": partition = .signedOut
                    default: partition = .user(value.removingPercentEncoding ?? value)
                    }
                } else if line.hasPrefix("path ") {
                    path = String(line.dropFirst("path ".count))
                }
            }
            return (partition, path)
        }
    }
}
