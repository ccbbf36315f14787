/// The keys of one object or mapping being read, for finding a key written twice: the
/// JSON and YAML readers both reject duplicate keys, with the first key's location.
///
/// Small objects (most of them) are checked by a scan of their members, which costs
/// nothing to set up; past `scanLimit` members a dictionary takes over, so checking stays
/// linear overall however large an object grows.
package struct DuplicateKeyIndex: Sendable {
    /// Objects with fewer entries than this are checked by a scan of their members.
    package static let scanLimit = 16

    /// Each key with where it was first written; built once the object has `scanLimit` entries.
    private var locations: [String: SourceLocation]?

    /// Creates the index of an object with no members yet.
    package init() {}

    /// Whether keys are still checked by a scan of the members (no dictionary yet).
    package var isScanning: Bool { locations == nil }

    /// Whether the next key of an object with `count` entries is checked by `scan(for:in:)`
    /// alone, which records nothing; otherwise `firstUse` must see it.
    @inline(__always) package func scans(count: Int) -> Bool {
        locations == nil && count < Self.scanLimit
    }

    /// Where `key` was written among `members`, or `nil`: the check while `scans(count:)`.
    @inline(__always) package static func scan(for key: String, in members: [JSONMember]) -> SourceLocation? {
        for member in members where member.key == key { return member.keyLocation }
        return nil
    }

    /// Where `key` was first written in the object, or `nil` when it is new (it is then
    /// remembered at `location`).
    /// - Parameters:
    ///   - members: The object's members so far, in order.
    ///   - count: How many entries the object has so far, which decides when the
    ///     dictionary takes over: the members, plus anything else that takes a place
    ///     (YAML's merge keys).
    package mutating func firstUse(
        of key: String, at location: SourceLocation, among members: [JSONMember], count: Int
    ) -> SourceLocation? {
        if locations == nil {
            if count < Self.scanLimit { return Self.scan(for: key, in: members) }
            var index: [String: SourceLocation] = [:]
            index.reserveCapacity(2 * Self.scanLimit)
            for member in members { index[member.key] = member.keyLocation }
            locations = index
        }
        if let first = locations?[key] { return first }
        locations?[key] = location
        return nil
    }
}
