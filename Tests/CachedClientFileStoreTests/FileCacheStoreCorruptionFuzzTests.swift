import StoreTestSupport
import FixtureServerSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// Hundreds of seeded random damages to an entry file (bit flips, truncations, random
/// bytes, overwritten ranges, forged lengths, another key's file): every read is the
/// exact entry or a miss that removes the file and says so, never a crash or a wrong entry.
@Suite("FileCacheStore corruption fuzz")
struct FileCacheStoreCorruptionFuzzTests {
    static let cases = 240  // 30 of each kind of damage

    @Test func everyDamagedFileIsAMissOrTheExactEntry() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = EventLog()
        let store = try FileCacheStore(directory: directory, events: events.record)
        let key = CacheKey(text: "cachegen-key 1\nendpoint Fuzz.get\npath /fuzz", endpoint: "Fuzz.get", partition: "u", path: "/fuzz")
        let other = CacheKey(text: "cachegen-key 1\nendpoint Fuzz.get\npath /fuzz\nquery n=2", endpoint: "Fuzz.get", partition: "u", path: "/fuzz")
        let entry = CacheEntry(
            body: Data((0..<1_500).map { UInt8(truncatingIfNeeded: $0 &* 7) }), date: Date(timeIntervalSince1970: 1_700_000_000),
            etag: "\"fuzz\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
        try await store.setEntry(entry, for: key)
        try await store.setEntry(entry, for: other)
        let path = URL(fileURLWithPath: store.entryPath(for: key))
        let original = [UInt8](try Data(contentsOf: path))
        let otherFile = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store.entryPath(for: other))))
        var random = SplitMix64(seed: 2_024)
        var misses = 0

        for round in 0..<Self.cases {
            let damaged = Self.damage(original, otherFile: otherFile, round: round, using: &random)
            try Data(damaged).write(to: path)
            let eventsBefore = events.all.count

            let found = try await store.entry(for: key)

            if damaged == original {
                #expect(found == entry, "round \(round): an intact file must read back")
            } else if let found {
                Issue.record("round \(round): a damaged file read as an entry: \(found.body.count) bytes")
            } else {
                misses += 1
                #expect(!FileManager.default.fileExists(atPath: path.path), "round \(round): the damaged file stayed")
                #expect(events.all.count == eventsBefore + 1 && events.all.last?.kind == .evict, "round \(round)")
            }
        }

        #expect(misses >= Self.cases - 5)  // a few rounds may leave the file as it was
        #expect(try await store.entry(for: other) == entry)  // its neighbour never suffered
        print("corruption fuzz: \(Self.cases) damaged files tried, \(misses) misses, 0 wrong entries")
    }

    /// One seeded damage, chosen by `round`.
    static func damage(_ bytes: [UInt8], otherFile: [UInt8], round: Int, using random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        switch round % 8 {
        case 0:  // flip 1 to 8 bits anywhere
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            }
        case 1:  // truncated anywhere, zero length included
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
        case 2:  // random bytes of a random length
            bytes = (0..<Int.random(in: 0...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 3:  // a range overwritten with random bytes
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = min(bytes.count, start + Int.random(in: 1...64, using: &random))
            for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        case 4:  // bytes appended
            bytes += (0..<Int.random(in: 1...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 5:  // a length or flag field of the header forged
            let field = [12, 24, 28, 32, 36, 40, 44].randomElement(using: &random) ?? 40
            bytes[field] = UInt8.random(in: 0...255, using: &random)
            bytes[field + 1] ^= UInt8.random(in: 1...255, using: &random)
        case 6:  // another key's whole, valid file
            bytes = otherFile
        default:  // the other key's file cut and spliced onto this one's start
            let cut = Int.random(in: 1..<min(bytes.count, otherFile.count), using: &random)
            bytes = Array(bytes.prefix(cut) + otherFile.dropFirst(cut))
        }
        return bytes
    }
}
