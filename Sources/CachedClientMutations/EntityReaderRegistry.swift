@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

/// How the answers of queued endpoints are read for entities (`CachedEntity`), by endpoint
/// name, so that a replay, which has only a mutation's bytes, can read them too.
///
/// An endpoint is known once a generated repository over the client was created (it tells
/// the client the response type of each queued mutation whose answer is an entity) or once it
/// was called in this process. A replay may send a mutation before either (the launch replay
/// starts with the client): the answer of an endpoint not known yet is kept, the last
/// `unreadLimit` of them, and read when the endpoint becomes known.
package final class EntityReaderRegistry: Sendable {
    /// An answer a replay received for an endpoint not known yet.
    package struct UnreadAnswer: Sendable {
        package let endpoint: String
        package let body: Data
        /// The partition the mutation was sent for, and when its answer came.
        package let partition: String?
        package let date: Date
    }

    /// How many unread answers are kept at most, the oldest dropped first.
    package static let unreadLimit = 100

    private struct State {
        /// `nil` for an endpoint known to answer no entity.
        package var readers: [String: EntityReader?] = [:]
        package var unread: [UnreadAnswer] = []
    }

    private let state = Locked(State())

    /// Makes `endpoint` known, with its reader (`nil`: its answers hold no entity); returns the
    /// answers kept for it, to be read now.
    package func register(_ reader: EntityReader?, for endpoint: String) -> [UnreadAnswer] {
        state.withLock { state in
            state.readers[endpoint] = .some(reader)
            let kept = state.unread.filter { $0.endpoint == endpoint }
            guard !kept.isEmpty else { return [] }
            state.unread.removeAll { $0.endpoint == endpoint }
            return reader == nil ? [] : kept
        }
    }

    /// The reader of `answer`'s endpoint; `nil` when it answers no entity, or when it is not
    /// known yet (then the answer is kept until it is).
    package func reader(keeping answer: UnreadAnswer) -> EntityReader? {
        state.withLock { state in
            if let known = state.readers[answer.endpoint] { return known }
            guard !answer.body.isEmpty else { return nil }
            state.unread.append(answer)
            if state.unread.count > Self.unreadLimit { state.unread.removeFirst(state.unread.count - Self.unreadLimit) }
            return nil
        }
    }

    /// Drops the answers kept for `partition` (sign-out).
    package func dropUnread(partition: String) {
        state.withLock { $0.unread.removeAll { $0.partition == partition } }
    }

    /// Drops every answer kept.
    package func dropAllUnread() {
        state.withLock { $0.unread.removeAll() }
    }

    /// How many answers are kept unread.
    package var unreadCount: Int {
        state.withLock { $0.unread.count }
    }
}
