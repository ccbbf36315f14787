import CachedClientStore
import Foundation

/// The content of one plan file of `FileCacheStore`: a format number and the plan, as JSON.
/// A later version that changes the record bumps `format`; an older app reading it leaves the
/// plan out rather than guessing.
package struct PrefetchRecord: Codable {
    /// The format this version writes and reads.
    package static let currentFormat = 1
    /// The largest file read back.
    package static let maxSize = 64 << 20

    package var format: Int
    package var plan: PrefetchPlan

    /// The file's bytes for `plan`.
    package static func encode(_ plan: PrefetchPlan) throws -> Data {
        try JSONEncoder().encode(PrefetchRecord(format: currentFormat, plan: plan))
    }

    /// The plan in a file's bytes; `nil` when they are not a whole record of this format.
    package static func decode(_ data: Data) -> PrefetchPlan? {
        guard let record = try? JSONDecoder().decode(PrefetchRecord.self, from: data), record.format == currentFormat else {
            return nil
        }
        return record.plan
    }
}
