import CachedClientStore
import Foundation

/// The content of one outbox file of `FileCacheStore`: a format number and the mutation, as
/// JSON. A later version that changes the record bumps `format`; an older app reading it
/// lists the mutation as failed rather than guessing.
package struct OutboxRecord: Codable {
    /// The format this version writes and reads.
    package static let currentFormat = 1
    /// The largest file read back (bodies are uploads of a form, not videos).
    package static let maxSize = 64 << 20

    package var format: Int
    package var mutation: QueuedMutation

    /// The file's bytes for `mutation`.
    package static func encode(_ mutation: QueuedMutation) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(OutboxRecord(format: currentFormat, mutation: mutation))
    }

    /// The mutation in a file's bytes; `nil` when they are not a whole record of this format.
    package static func decode(_ data: Data) -> QueuedMutation? {
        guard let record = try? JSONDecoder().decode(OutboxRecord.self, from: data), record.format == currentFormat,
            record.mutation.createdAt.isPlausible
        else {
            return nil
        }
        return record.mutation
    }
}
