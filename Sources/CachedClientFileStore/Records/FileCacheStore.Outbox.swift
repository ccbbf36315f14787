import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// The queued mutations of a store (its `MutationOutbox`): one file per mutation in
    /// `.outbox` inside the partition's folder (`<directory>/v2/<partition>/.outbox/<sequence>-<id>`),
    /// so that sign-out's folder removal and `removeAll()` take it with the entries, while
    /// invalidations, which remove endpoint folders, and sweeps, which skip names starting with
    /// a dot, never touch it. `<sequence>` is 16 hex digits, so names sort in queue order, and
    /// `<id>` a UUID: no user data in a name.
    ///
    /// A file is the JSON of `OutboxRecord` (a format number and the mutation), written as a
    /// `PrivateRecord` (flushed, 0600, renamed into place), so a reader, or the next launch
    /// after `kill -9`, sees the whole record or none. A record that does not read back (torn by
    /// a power loss, damaged, of a later format) is listed as failed, never thrown. A system
    /// call that fails (an I/O error, no permission, a full disk) is thrown, never taken for an
    /// empty outbox, a missing record or a damaged one: the record is still there, and is read
    /// again once the fault goes.
    package struct Outbox: Sendable {
        private let folder: Folder
        /// The last sequence number given to a queued mutation, by outbox folder.
        private let sequences = Locked<[String: UInt64]>([:])

        /// The outbox of the store in `folder`; reads nothing.
        package init(folder: Folder) {
            self.folder = folder
        }

        /// Writes the mutation's file after every mutation of its partition; durable when it returns.
        package func enqueue(_ mutation: QueuedMutation) throws -> QueuedMutation {
            let path = folder.outboxPath(partition: mutation.partition)
            try Folder.makeDirectories(path)
            var stored = mutation
            stored.sequence = try nextSequence(in: path)
            try write(stored, in: path)
            return stored
        }

        /// Reads the partition's outbox in order; damaged files come back as failed placeholders,
        /// and a folder or file that cannot be read throws.
        package func mutations(partition: String?) throws -> [QueuedMutation] {
            let path = folder.outboxPath(partition: partition)
            var found: [(sequence: UInt64, id: String, name: String)] = []
            let abandonedBefore = Date().timeIntervalSince1970 - FileCacheStore.abandonedFileAge
            for name in try POSIX.names(in: path, operation: "list the queued mutations in") {
                if name.hasPrefix(".tmp-") {
                    // A writer killed before its rename; the change time is not set from `now()`.
                    if let info = try? POSIX.status(atPath: path + "/" + name), info.changeTime < abandonedBefore {
                        try? POSIX.removeFile(path + "/" + name)
                    }
                    continue
                }
                guard let (sequence, id) = Self.parseFileName(name) else { continue }
                found.append((sequence, id, name))
            }
            found.sort { ($0.sequence, $0.id) < ($1.sequence, $1.id) }
            // A file removed since the listing (sent or discarded by another store) is left out.
            var mutations: [QueuedMutation] = []
            for file in found {
                if let mutation = try read(path + "/" + file.name, sequence: file.sequence, id: file.id, partition: partition) {
                    mutations.append(mutation)
                }
            }
            return mutations
        }

        /// Reads the mutation's one file; `nil` when it is gone.
        package func mutation(_ mutation: QueuedMutation) throws -> QueuedMutation? {
            let path = folder.outboxPath(partition: mutation.partition) + "/" + Self.fileName(of: mutation)
            return try read(path, sequence: mutation.sequence, id: mutation.id, partition: mutation.partition)
        }

        /// Rewrites the mutation's file, unless it is gone (sent, discarded or signed out).
        package func update(_ mutation: QueuedMutation) throws {
            let path = folder.outboxPath(partition: mutation.partition)
            guard try POSIX.isPresent(path + "/" + Self.fileName(of: mutation), operation: "update the queued mutation")
            else { return }
            try write(mutation, in: path)
        }

        /// Deletes the mutation's file.
        package func remove(_ mutation: QueuedMutation) throws {
            let path = folder.outboxPath(partition: mutation.partition) + "/" + Self.fileName(of: mutation)
            do throws(FileCacheStoreError) {
                try POSIX.removeFile(path)
            } catch {
                if error.isNoSuchPath { return }
                throw error
            }
        }

        /// `<sequence as 16 hex digits>-<id>`.
        package static func fileName(of mutation: QueuedMutation) -> String {
            let hex = String(mutation.sequence, radix: 16)
            return String(repeating: "0", count: max(0, 16 - hex.count)) + hex + "-" + mutation.id
        }

        /// The sequence and id of an outbox file's name; `nil` for any other name.
        package static func parseFileName(_ name: String) -> (UInt64, String)? {
            let utf8 = name.utf8
            guard utf8.count > 17, let dash = name.firstIndex(of: "-"), name.distance(from: name.startIndex, to: dash) == 16,
                let sequence = UInt64(name[..<dash], radix: 16)
            else { return nil }
            let id = String(name[name.index(after: dash)...])
            guard id.utf8.allSatisfy({ $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            else { return nil }
            return (sequence, id)
        }

        /// One more than the largest sequence in the folder (listed once per folder and process);
        /// a folder that cannot be listed throws, rather than restart the order at 1, and so
        /// does one whose largest is the last there is (a stray or hostile file's name), rather
        /// than trap: the mutation is then sent as an ordinary one, not queued.
        private func nextSequence(in path: String) throws(FileCacheStoreError) -> UInt64 {
            // Listed outside the lock (a slow disk must not hold every other folder's enqueue);
            // a listing that lost a race with another enqueue here is not used.
            let listed: UInt64? =
                sequences.withLock { $0[path] } == nil
                ? try POSIX.names(in: path, operation: "list the queued mutations in").compactMap { Self.parseFileName($0)?.0 }.max() ?? 0
                : nil
            let next = sequences.withLock { sequences -> UInt64? in
                let last = sequences[path] ?? listed ?? 0
                guard last < .max else { return nil }
                sequences[path] = last + 1
                return last + 1
            }
            guard let next else { throw FileCacheStoreError(operation: "number a queued mutation in", path: path, code: EOVERFLOW) }
            return next
        }

        /// Writes the record to a temporary file, flushes it and renames it over its name.
        private func write(_ mutation: QueuedMutation, in path: String) throws {
            let bytes = try [UInt8](OutboxRecord.encode(mutation))
            try PrivateRecord.write(bytes, named: Self.fileName(of: mutation), in: path, operation: "create a queued mutation in")
        }

        /// The record in a file, or a failed placeholder naming why its content is not one;
        /// `nil` when the file is gone. A system call that fails throws: the record may be
        /// whole, and is read again later.
        private func read(
            _ path: String, sequence: UInt64, id: String, partition: String?
        ) throws(FileCacheStoreError) -> QueuedMutation? {
            func unreadable(_ reason: String) -> QueuedMutation {
                .unreadable(id: id, sequence: sequence, partition: partition, reason: reason)
            }
            let fd: Int32
            do throws(FileCacheStoreError) {
                fd = try POSIX.openForReading(path)
            } catch {
                if error.isNoSuchPath { return nil }
                // A link (`ELOOP`), a socket and the like fail to open: what is there decides.
                guard let info = try? POSIX.status(atPath: path), !info.isRegularFile else { throw error }
                return unreadable("not a file")
            }
            defer { try? POSIX.closeFile(fd, path: path) }
            let info = try POSIX.status(of: fd, path: path)
            guard info.isRegularFile else { return unreadable("not a file") }
            guard info.size <= OutboxRecord.maxSize else { return unreadable("larger than a record can be") }
            let buffer = try POSIX.readAll(fd, capacity: info.size, path: path)
            let data = Data(buffer.bytes)
            guard let mutation = OutboxRecord.decode(data) else { return unreadable("damaged or of an unknown format") }
            guard mutation.id == id, mutation.sequence == sequence, mutation.partition == partition else {
                return unreadable("its name does not match its content")
            }
            return mutation
        }
    }
}
