import Foundation

import CachedClientStore

/// A queued mutation as the client makes one.
package func queuedMutation(
    _ name: String, partition: String? = "user-1", path: String = "/notes", body: String = #"{"text":"hi"}"#
) -> QueuedMutation {
    QueuedMutation(
        id: UUID().uuidString, partition: partition, scope: path, endpoint: "Notes.create", method: "POST", path: path,
        query: [.init(name: "trace", value: name)], body: Data(body.utf8), contentType: "application/json",
        idempotencyKey: UUID().uuidString, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
}
