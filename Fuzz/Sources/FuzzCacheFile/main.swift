@testable import CachedClientFileStore
@testable import CachedClientHTTP
import CachedClientRuntime
@testable import CachedClientStore
@testable import CachedClientValues
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// The cache file decoder, as `FileCacheStore.entry(for:)` uses it (`fileSize(header:)` on the
/// first bytes, then `decode` of the whole file), on the raw input and on the input with its
/// trailing checksum recomputed (so that mutations reach past the checksum):
/// - an entry is returned only for the key text stored in the file, byte for byte: never
///   for a key it was not written for;
/// - a `keyMismatch` means the file is a sound entry of another key, which decodes under
///   that key;
/// - an entry's parts lie inside the file, its freshness numbers are finite and not negative,
///   its date is one an app can show (`Date.isPlausible`), and `header(of:)` names the same
///   endpoint and date;
/// - an entry written back with `encode` decodes to the same entry;
/// - no read past the input (the input is an exact allocation under AddressSanitizer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: start, count: count)
    check(raw)
    if count >= CacheFileFormat.fixedHeaderSize + CacheFileFormat.checksumSize {
        FuzzCheck.withExactCopy(of: raw) { copy in
            let mutable = UnsafeMutableRawBufferPointer(mutating: copy)
            let sum = XXH64.hash(UnsafeRawBufferPointer(rebasing: copy[0..<(count - 8)]))
            mutable.storeBytes(of: sum.littleEndian, toByteOffset: count - 8, as: UInt64.self)
            check(copy)
        }
    }
    return 0
}

private let seedKeyTexts = CacheFileSeeds.entries.map(\.key.text)

private func check(_ bytes: UnsafeRawBufferPointer) {
    let count = bytes.count
    // What the store does first: the size from a prefix of the file.
    let prefixSize = min(count, FileCacheStore.firstReadSize)
    let size = CacheFileFormat.fileSize(header: UnsafeRawBufferPointer(rebasing: bytes[0..<prefixSize]))

    var keyTexts = seedKeyTexts
    let stored = storedParts(bytes)
    if let stored {
        keyTexts.append(stored.keyText)
        keyTexts.append(stored.keyText + "x")
        if !stored.keyText.isEmpty { keyTexts.append(String(stored.keyText.dropLast())) }
    }
    for keyText in keyTexts {
        switch CacheFileFormat.decode(bytes, keyText: keyText) {
        case .failure(.keyMismatch):
            guard let stored, stored.keyTextIsExact else { break }
            if case .failure(let problem) = CacheFileFormat.decode(bytes, keyText: stored.keyText) {
                FuzzCheck.fail("decode: keyMismatch, but under its stored key the file is \(problem)")
            }
        case .failure:
            break
        case .success(let layout):
            FuzzCheck.require(size == .success(count), "decode: an entry from a file whose header says \(size), size \(count)")
            guard let stored else { FuzzCheck.fail("decode: an entry from a file whose lengths do not fit it") }
            FuzzCheck.require(
                stored.keyBytes.elementsEqual(keyText.utf8),
                "decode: an entry for key \(keyText.debugDescription), but the file holds \(stored.keyText.debugDescription)")
            requireSound(layout, in: bytes, keyText: keyText, endpoint: stored.endpoint)
        }
    }
}

/// The endpoint name and key text the header's lengths point at, when they fit the bytes.
private func storedParts(_ bytes: UnsafeRawBufferPointer)
    -> (endpoint: String, keyText: String, keyBytes: UnsafeRawBufferPointer, keyTextIsExact: Bool)?
{
    let header = CacheFileFormat.fixedHeaderSize
    guard bytes.count >= header else { return nil }
    let endpointCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self)))
    let textCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self)))
    guard header + endpointCount + textCount <= bytes.count else { return nil }
    let endpoint = String(decoding: bytes[header..<(header + endpointCount)], as: UTF8.self)
    let keyBytes = UnsafeRawBufferPointer(rebasing: bytes[(header + endpointCount)..<(header + endpointCount + textCount)])
    let keyText = String(decoding: keyBytes, as: UTF8.self)
    return (endpoint, keyText, keyBytes, keyText.utf8.elementsEqual(keyBytes))
}

private func requireSound(_ layout: CacheFileFormat.Layout, in bytes: UnsafeRawBufferPointer, keyText: String, endpoint: String) {
    let count = bytes.count
    FuzzCheck.require(
        layout.bodyOffset >= CacheFileFormat.fixedHeaderSize && layout.bodyCount >= 0
            && layout.bodyOffset + layout.bodyCount + CacheFileFormat.checksumSize == count,
        "decode: body \(layout.bodyOffset)+\(layout.bodyCount) does not end before the checksum of a \(count)-byte file")
    FuzzCheck.require(
        layout.date.isPlausible, "decode: an entry dated \(layout.date.timeIntervalSinceReferenceDate), which no app could show")
    if let freshness = layout.freshness {
        let values = [freshness.lifetime, freshness.initialAge, freshness.staleIfError, freshness.staleWhileRevalidate]
        FuzzCheck.require(
            values.allSatisfy { $0.map { $0.isFinite && $0 >= 0 } ?? true }, "decode: freshness \(freshness) out of range")
    }
    let prefix = UnsafeRawBufferPointer(rebasing: bytes[0..<min(count, CacheFileFormat.headerPrefixSize)])
    if let header = CacheFileFormat.header(of: prefix) {
        FuzzCheck.require(header.endpoint == endpoint, "header(of:): endpoint \(header.endpoint) is not the file's \(endpoint)")
        FuzzCheck.require(
            header.date.timeIntervalSinceReferenceDate.bitPattern == layout.date.timeIntervalSinceReferenceDate.bitPattern,
            "header(of:): date \(header.date) is not the entry's \(layout.date)")
    } else {
        // Only an endpoint name longer than the prefix may hide the header.
        let endpointCount = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self)))
        FuzzCheck.require(CacheFileFormat.fixedHeaderSize + endpointCount > prefix.count, "header(of:): nil for a valid entry")
    }
    // Written back, the entry reads the same.
    let body = Data(bytes[layout.bodyOffset..<(layout.bodyOffset + layout.bodyCount)])
    let entry = CacheEntry(body: body, date: layout.date, etag: layout.etag, lastModified: layout.lastModified, freshness: layout.freshness)
    let key = CacheKey(text: keyText, endpoint: endpoint, partition: nil, path: "/")
    guard let encoded = CacheFileFormat.encode(entry, key: key) else { FuzzCheck.fail("encode: nil for a decoded entry") }
    let again = encoded.withUnsafeBytes { CacheFileFormat.decode($0, keyText: keyText) }
    guard case .success(let second) = again else { FuzzCheck.fail("decode: an entry written back reads as \(again)") }
    FuzzCheck.require(
        second.date.timeIntervalSinceReferenceDate.bitPattern == layout.date.timeIntervalSinceReferenceDate.bitPattern
            && second.etag == layout.etag && second.lastModified == layout.lastModified
            && second.freshness == layout.freshness && second.bodyCount == layout.bodyCount
            && encoded[second.bodyOffset..<(second.bodyOffset + second.bodyCount)].elementsEqual(body),
        "decode: an entry written back reads differently: \(layout) then \(second)")
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
// `FuzzCacheFile --make-seeds FOLDER` writes the seed cache files instead (see CacheFileSeeds).
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--make-seeds" {
    exit(await CacheFileSeeds.write(to: URL(fileURLWithPath: CommandLine.arguments[2])))
}
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzCacheFile))
