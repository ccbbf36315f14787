/// A client's signed-in user and how many times it was set (`CachedClient.partitionState`):
/// a call joins only fetches that started under the same user. A struct, not a tuple: a tuple
/// as a generic argument costs a run-time metadata lookup on every call.
package struct PartitionState: Sendable {
    package var partition: String?
    package var switches: UInt64
}
