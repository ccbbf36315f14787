import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// The log of recent removals in the removal counter's file (`<directory>/removals`), after
    /// its number: what `FileCacheStore.removals(since:)` reads, so that a client in any process
    /// keeps the values a removal did not cover.
    ///
    /// Layout, all little-endian `UInt64`s:
    /// - bytes 0–7: the removal number (`RemovalCounter`; the only part older versions know);
    /// - bytes 8–15: the log's header, `headerMagic` with the format version in its top bytes;
    ///   zero while no store has written the log;
    /// - then `slotCount` slots of 32 bytes: the number the slot was written for, the scope's
    ///   kind, its digest, and a check (XXH64 of the first 24 bytes). The scope of number `n`
    ///   is in slot `n % slotCount`.
    ///
    /// Written only under the file's exclusive `flock`, slot first and number second; read under
    /// its shared `flock`, in one `pread`. The scopes since a number are known only when every
    /// number after it has its slot, whole and checked: a slot overwritten since (the log
    /// overflowed), written by nobody (an older version of the runtime moved the number), torn
    /// (a failed write), or a header of another format make the answer `nil`, which clients
    /// take as "everything". A corrupt or foreign file is never a crash and never a narrower
    /// scope than the removal's (short of a 64-bit checksum collision).
    package enum RemovalLog {
        /// The number of slots: 127 removals' moves (each removal moves the number twice).
        package static let slotCount = 127
        /// The bytes of one slot.
        package static let slotLength = 32
        /// Where the header is.
        package static let headerOffset = 8
        /// Where the first slot is.
        package static let slotsOffset = 16
        /// The whole file: the number, the header and the slots, 4 080 bytes.
        package static let fileLength = slotsOffset + slotCount * slotLength
        /// "CGRL", the version (1) above it.
        package static let headerMagic: UInt64 = 0x0000_0001_4C52_4743

        /// Writes `scope` into the slot of `number`, and the header if no store wrote one yet.
        /// Throws when the file holds another format's log (left alone) or a write fails.
        package static func record(_ scope: RemovalScope, as number: UInt64, fd: Int32, path: String) throws(FileCacheStoreError) {
            let header = try POSIX.readBytes(fd, count: slotsOffset, path: path)
            let found = header.count == slotsOffset ? word(header, at: headerOffset) : 0
            if found == 0 {
                try POSIX.writeBytes(fd, bytes(of: [headerMagic]), at: headerOffset, path: path)
            } else if found != headerMagic {
                throw FileCacheStoreError(operation: "write the removal log of", path: path, code: EINVAL)
            }
            let fields = [number, UInt64(scope.kind.rawValue), scope.digest]
            let slot = bytes(of: fields + [check(of: fields)])
            try POSIX.writeBytes(fd, slot, at: slotsOffset + Int(number % UInt64(slotCount)) * slotLength, path: path)
        }

        /// The scopes of the numbers after `count` up to the file's number, from the file's
        /// first `fileLength` bytes; `nil` unless the log knows every one of them.
        package static func scopes(in file: [UInt8], since count: UInt64) -> [RemovalScope]? {
            guard file.count >= slotsOffset else { return nil }
            let current = word(file, at: 0)
            guard count < current else { return [] }
            guard file.count >= fileLength, word(file, at: headerOffset) == headerMagic, current - count <= UInt64(slotCount)
            else { return nil }
            var scopes: [RemovalScope] = []
            for number in (count + 1)...current {
                let offset = slotsOffset + Int(number % UInt64(slotCount)) * slotLength
                let fields = (0..<3).map { word(file, at: offset + $0 * 8) }
                guard fields[0] == number, word(file, at: offset + 24) == check(of: fields),
                    fields[1] <= UInt64(UInt8.max), let kind = RemovalScope.Kind(rawValue: UInt8(fields[1]))
                else { return nil }
                let scope = RemovalScope(kind: kind, digest: fields[2])
                if kind == .everything { return [scope] }
                if !scopes.contains(scope) { scopes.append(scope) }
            }
            return scopes
        }

        /// XXH64 of a slot's first three words.
        private static func check(of fields: [UInt64]) -> UInt64 {
            bytes(of: fields).withUnsafeBytes { XXH64.hash($0) }
        }

        private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        }

        private static func bytes(of words: [UInt64]) -> [UInt8] {
            words.flatMap { word in withUnsafeBytes(of: word.littleEndian) { Array($0) } }
        }
    }
}
