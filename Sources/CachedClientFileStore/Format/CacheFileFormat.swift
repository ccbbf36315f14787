import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// The on-disk form of one `FileCacheStore` entry, kept in this one place so that the
/// writer, the reader and the eviction sweep can never disagree about it.
///
/// Format version 2. All integers are little-endian; lengths are byte counts.
///
/// ```
/// offset  size  field
///      0     8  magic: 89 43 47 45 0D 0A 1A 0A  ("\x89CGE\r\n\x1A\n")
///      8     4  format version (UInt32) = 2
///     12     4  flags (UInt32): bit 0 = has ETag, bit 1 = has Last-Modified,
///               bit 2 = has server freshness (the F block below), and only with bit 2:
///               bit 3 = has lifetime, bit 4 = no-cache, bit 5 = must-revalidate,
///               bit 6 = has stale-if-error, bit 7 = has stale-while-revalidate; other bits 0
///     16     8  stored date: Float64 bit pattern of Date.timeIntervalSinceReferenceDate
///     24     4  E: endpoint name length (UInt32)
///     28     4  K: key text length (UInt32)
///     32     4  T: ETag length (UInt32)
///     36     4  L: Last-Modified length (UInt32)
///     40     8  B: body length (UInt64)
///     48     E  endpoint name, UTF-8 (lets the eviction sweep name the endpoint in its
///               events by reading a few bytes, without parsing the key text)
///          K  key text, UTF-8 (compared with `CacheKey.text` on every read)
///          T  ETag, UTF-8
///          L  Last-Modified, UTF-8
///          F  server freshness, 32 bytes when flag bit 2 is set, else 0: four Float64 bit
///             patterns, lifetime, initial age, stale-if-error, stale-while-revalidate
///             (each 0 when its flag is clear; all finite and not negative)
///          B  response body, raw
///          8  XXH64 (seed 0) of every byte before it
/// ```
///
/// The file size must be exactly `56 + E + K + T + L + F + B`. Version 1 (no F block) is
/// read as `unsupportedVersion`: a miss, removed, refetched. The magic starts with a
/// non-ASCII byte and holds CR LF, SUB and LF, so text-mode mangling or a foreign file is
/// caught before the lengths are trusted. The date is stored as the raw `Double` so an
/// entry reads back equal to what was written; one no app could show (not finite, or not
/// within ±3,000 years of 1970) is malformed. The checksum is XXH64 rather than SHA-256
/// because it runs at memory speed and a cache hit must cost little more than reading the
/// bytes; it guards against torn, truncated and bit-rotted files, not against an attacker
/// (who could as well write a valid file, since the folder is the app's own).
package enum CacheFileFormat {
    /// The first eight bytes of every entry file.
    package static let magic: [UInt8] = [0x89, 0x43, 0x47, 0x45, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The version this code writes and the only one it reads.
    package static let version: UInt32 = 2
    /// Bytes before the endpoint name.
    package static let fixedHeaderSize = 48
    /// Bytes of the trailing checksum.
    package static let checksumSize = 8

    /// Bytes of the server freshness block, when there is one.
    package static let freshnessSize = 32

    private static let hasETag: UInt32 = 1
    private static let hasLastModified: UInt32 = 2
    private static let hasFreshness: UInt32 = 1 << 2
    private static let hasLifetime: UInt32 = 1 << 3
    private static let noCache: UInt32 = 1 << 4
    private static let mustRevalidate: UInt32 = 1 << 5
    private static let hasStaleIfError: UInt32 = 1 << 6
    private static let hasStaleWhileRevalidate: UInt32 = 1 << 7
    private static let freshnessFlags: UInt32 =
        hasLifetime | noCache | mustRevalidate | hasStaleIfError | hasStaleWhileRevalidate

    /// Why a file is not a readable entry for the key asked for.
    package enum Problem: Error, Equatable {
        /// The file has no bytes at all (such as after a power loss before the data reached disk).
        case empty
        /// The file ends before the lengths in its header say it should.
        case truncated
        /// The file does not start with the magic: not written by this store.
        case foreign
        /// Written by another format version.
        case unsupportedVersion(UInt32)
        /// The header's flags or lengths are impossible.
        case malformed
        /// The bytes changed after they were written.
        case checksumMismatch
        /// A valid entry, but of another key that shares the digest (or was copied here).
        case keyMismatch
        /// Not a regular file.
        case notAFile
        /// The file holds more bytes than its header accounts for (checked before the body
        /// is read, so a huge file at an entry's path costs one small read).
        case longerThanHeader

        /// The reason, as it appears in an eviction event.
        package var reason: String {
            switch self {
            case .empty: "empty file"
            case .truncated: "truncated file"
            case .foreign: "not a cachegen entry"
            case .unsupportedVersion(let version): "format version \(version), expected \(CacheFileFormat.version)"
            case .malformed: "malformed file"
            case .checksumMismatch: "checksum mismatch"
            case .keyMismatch: "stored under a different key"
            case .notAFile: "not a regular file"
            case .longerThanHeader: "longer than its header says"
            }
        }
    }

    /// Where the parts of a valid entry lie in the file's bytes.
    package struct Layout: Equatable {
        /// When the answer was stored.
        package var date: Date
        /// The ETag, if one was stored.
        package var etag: String?
        /// The Last-Modified value, if one was stored.
        package var lastModified: String?
        /// What the server said about freshness, if anything.
        package var freshness: ServerFreshness?
        /// The body's offset from the start of the file.
        package var bodyOffset: Int
        /// The body's length.
        package var bodyCount: Int
    }

    /// The bytes of a file for `entry` under `key`; `nil` if a field is too long for the format.
    package static func encode(_ entry: CacheEntry, key: CacheKey) -> [UInt8]? {
        let endpoint = Array(key.endpoint.utf8)
        let text = Array(key.text.utf8)
        let etag = entry.etag.map { Array($0.utf8) } ?? []
        let lastModified = entry.lastModified.map { Array($0.utf8) } ?? []
        let limit = Int(UInt32.max)
        guard endpoint.count <= limit, text.count <= limit, etag.count <= limit, lastModified.count <= limit else {
            return nil
        }
        let body = entry.body
        let freshness = entry.freshness.map(freshnessFields)
        let (partial, overflow) = (fixedHeaderSize + checksumSize + endpoint.count + text.count + etag.count
            + lastModified.count + (freshness == nil ? 0 : freshnessSize)).addingReportingOverflow(body.count)
        guard !overflow else { return nil }
        let total = partial
        var flags: UInt32 = 0
        if entry.etag != nil { flags |= hasETag }
        if entry.lastModified != nil { flags |= hasLastModified }
        if let freshness { flags |= hasFreshness | freshness.flags }

        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var writer = Writer(base: UnsafeMutableRawPointer(base))
            writer.append(magic)
            writer.append(version)
            writer.append(flags)
            writer.append(entry.date.timeIntervalSinceReferenceDate.bitPattern)
            writer.append(UInt32(endpoint.count))
            writer.append(UInt32(text.count))
            writer.append(UInt32(etag.count))
            writer.append(UInt32(lastModified.count))
            writer.append(UInt64(body.count))
            writer.append(endpoint)
            writer.append(text)
            writer.append(etag)
            writer.append(lastModified)
            if let freshness {
                for value in freshness.values { writer.append(value.bitPattern) }
            }
            body.withUnsafeBytes { writer.append($0) }
            let checksum = XXH64.hash(UnsafeRawBufferPointer(start: base, count: writer.offset))
            writer.append(checksum)
            initialized = writer.offset
        }
    }

    /// The size a file must have, from its first bytes alone (the fixed header; more are
    /// ignored), or why those bytes are not the start of an entry; lets a reader refuse a
    /// file whose length disagrees with its header before reading, or allocating, its body.
    package static func fileSize(header bytes: UnsafeRawBufferPointer) -> Result<Int, Problem> {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .failure(.empty) }
        let count = bytes.count
        let magicCount = min(count, magic.count)
        for index in 0..<magicCount where bytes[index] != magic[index] { return .failure(.foreign) }
        guard count >= fixedHeaderSize else { return .failure(.truncated) }
        let fileVersion = load(UInt32.self, base, 8)
        guard fileVersion == version else { return .failure(.unsupportedVersion(fileVersion)) }
        let flags = load(UInt32.self, base, 12)
        guard flags & ~(hasETag | hasLastModified | hasFreshness | freshnessFlags) == 0,
            flags & hasFreshness != 0 || flags & freshnessFlags == 0
        else { return .failure(.malformed) }
        let freshnessCount = flags & hasFreshness == 0 ? 0 : freshnessSize
        let endpointCount = Int(load(UInt32.self, base, 24))
        let textCount = Int(load(UInt32.self, base, 28))
        let etagCount = Int(load(UInt32.self, base, 32))
        let lastModifiedCount = Int(load(UInt32.self, base, 36))
        let bodyLength = load(UInt64.self, base, 40)
        // Four UInt32 lengths plus the fixed parts cannot overflow Int; the body length can.
        guard bodyLength <= UInt64(Int.max) else { return .failure(.malformed) }
        let headerEnd = fixedHeaderSize + endpointCount + textCount + etagCount + lastModifiedCount + freshnessCount
        let (bodyEnd, overflow) = headerEnd.addingReportingOverflow(Int(bodyLength))
        guard !overflow, bodyEnd <= Int.max - checksumSize else { return .failure(.malformed) }
        if flags & hasETag == 0 && etagCount != 0 { return .failure(.malformed) }
        if flags & hasLastModified == 0 && lastModifiedCount != 0 { return .failure(.malformed) }
        return .success(bodyEnd + checksumSize)
    }

    /// Checks a whole file and finds its parts, or says why it is not an entry for `keyText`.
    ///
    /// Order matters for the reported reason: structure first (the header, then, after the
    /// checksum, the freshness numbers), then the key, so a corrupted file reads as
    /// corruption under every key rather than as another key's entry.
    package static func decode(_ bytes: UnsafeRawBufferPointer, keyText: String) -> Result<Layout, Problem> {
        let expected: Int
        switch fileSize(header: bytes) {
        case .failure(let problem): return .failure(problem)
        case .success(let size): expected = size
        }
        guard let base = bytes.baseAddress else { return .failure(.empty) }
        let count = bytes.count
        if count < expected { return .failure(.truncated) }
        if count > expected { return .failure(.longerThanHeader) }
        let flags = load(UInt32.self, base, 12)
        let freshnessCount = flags & hasFreshness == 0 ? 0 : freshnessSize
        let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: load(UInt64.self, base, 16)))
        let endpointCount = Int(load(UInt32.self, base, 24))
        let textCount = Int(load(UInt32.self, base, 28))
        let etagCount = Int(load(UInt32.self, base, 32))
        let lastModifiedCount = Int(load(UInt32.self, base, 36))
        let bodyLength = load(UInt64.self, base, 40)
        let bodyEnd = expected - checksumSize

        let stored = load(UInt64.self, base, bodyEnd)
        guard XXH64.hash(UnsafeRawBufferPointer(start: base, count: bodyEnd)) == stored else {
            return .failure(.checksumMismatch)
        }

        let textStart = fixedHeaderSize + endpointCount
        let etagStart = textStart + textCount
        let lastModifiedStart = etagStart + etagCount
        let freshnessStart = lastModifiedStart + lastModifiedCount
        // The date and the freshness numbers are structure too: checked before the key, so a
        // file with impossible ones reads as malformed under every key, never as another key's
        // entry, and no NaN or year 10^290 reaches an app as a value's date.
        guard date.isPlausible else { return .failure(.malformed) }
        var freshness: ServerFreshness?
        if freshnessCount > 0 {
            let values = (0..<4).map { Double(bitPattern: load(UInt64.self, base, freshnessStart + 8 * $0)) }
            guard values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return .failure(.malformed) }
            freshness = ServerFreshness(
                lifetime: flags & hasLifetime == 0 ? nil : values[0], initialAge: values[1],
                noCache: flags & noCache != 0, mustRevalidate: flags & mustRevalidate != 0,
                staleIfError: flags & hasStaleIfError == 0 ? nil : values[2],
                staleWhileRevalidate: flags & hasStaleWhileRevalidate == 0 ? nil : values[3])
        }

        let storedText = UnsafeRawBufferPointer(start: base + textStart, count: textCount)
        let matches = keyText.utf8.withContiguousStorageIfAvailable { expected -> Bool in
            guard expected.count == textCount else { return false }
            guard let expectedBase = expected.baseAddress, textCount > 0 else { return true }
            return memcmp(expectedBase, base + textStart, textCount) == 0
        } ?? storedText.elementsEqual(keyText.utf8)
        guard matches else { return .failure(.keyMismatch) }
        return .success(Layout(
            date: date,
            etag: flags & hasETag == 0 ? nil : string(base, etagStart, etagCount),
            lastModified: flags & hasLastModified == 0 ? nil : string(base, lastModifiedStart, lastModifiedCount),
            freshness: freshness,
            bodyOffset: freshnessStart + freshnessCount,
            bodyCount: Int(bodyLength)))
    }

    /// The endpoint name and key text a file holds, read from its header for an inspection,
    /// which has no key to compare; `nil` when the header's lengths do not fit the bytes.
    /// The file is not checked: `decode(_:keyText:)` with this text does that.
    package static func storedKey(in bytes: UnsafeRawBufferPointer) -> (endpoint: String, text: String)? {
        guard case .success(let expected) = fileSize(header: bytes), expected == bytes.count,
            let base = bytes.baseAddress
        else { return nil }
        let endpointCount = Int(load(UInt32.self, base, 24))
        let textCount = Int(load(UInt32.self, base, 28))
        return (string(base, fixedHeaderSize, endpointCount), string(base, fixedHeaderSize + endpointCount, textCount))
    }

    /// How many leading bytes `header(of:)` wants: the fixed header and a generous endpoint name.
    package static let headerPrefixSize = 4096

    /// The endpoint name and stored date from the start of a file, for naming an evicted entry
    /// without reading (or checking) the whole file.
    package static func header(of prefix: UnsafeRawBufferPointer) -> (endpoint: String, date: Date)? {
        guard let base = prefix.baseAddress, prefix.count >= fixedHeaderSize,
            (0..<magic.count).allSatisfy({ prefix[$0] == magic[$0] }),
            load(UInt32.self, base, 8) == version
        else { return nil }
        let endpointCount = Int(load(UInt32.self, base, 24))
        guard fixedHeaderSize + endpointCount <= prefix.count else { return nil }
        let date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: load(UInt64.self, base, 16)))
        return (string(base, fixedHeaderSize, endpointCount), date)
    }

    /// The flag bits and the four numbers of the freshness block. A value that is not finite
    /// or is negative (which `ResponseCaching` never produces) is written as 0, so every
    /// file this writes is one it reads.
    private static func freshnessFields(_ freshness: ServerFreshness) -> (flags: UInt32, values: [Double]) {
        var flags: UInt32 = 0
        if freshness.lifetime != nil { flags |= hasLifetime }
        if freshness.noCache { flags |= noCache }
        if freshness.mustRevalidate { flags |= mustRevalidate }
        if freshness.staleIfError != nil { flags |= hasStaleIfError }
        if freshness.staleWhileRevalidate != nil { flags |= hasStaleWhileRevalidate }
        let values = [freshness.lifetime, freshness.initialAge, freshness.staleIfError, freshness.staleWhileRevalidate]
            .map { value -> Double in
                guard let value, value.isFinite, value >= 0 else { return 0 }
                return value
            }
        return (flags, values)
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ base: UnsafeRawPointer, _ offset: Int) -> T {
        T(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    private static func string(_ base: UnsafeRawPointer, _ offset: Int, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: base + offset, count: count), as: UTF8.self)
    }

    /// Appends fields to memory sized in advance by `encode`.
    private struct Writer {
        package let base: UnsafeMutableRawPointer
        package var offset = 0

        package mutating func append<T: FixedWidthInteger>(_ value: T) {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }

        package mutating func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { append($0) }
        }

        package mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + offset).copyMemory(from: source, byteCount: bytes.count)
            offset += bytes.count
        }
    }
}
