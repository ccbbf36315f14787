extension FileCacheStore {
    /// The store's small records of its own, kept beside the entries (a queued mutation in
    /// `Outbox`, a prefetch plan in `PrefetchPlans`): written whole and private, or not at
    /// all, even across a crash.
    package enum PrivateRecord {
        /// Writes `bytes` to a temporary file in `folder` (mode 0600, flushed), then renames it
        /// over `name`; on any failure the temporary file is removed and `name` is left as it was.
        /// `operation` names what was being done, for the error (`create a queued mutation in`).
        static func write(_ bytes: [UInt8], named name: String, in folder: String, operation: StaticString) throws {
            let target = folder + "/" + name
            let temporary = folder + "/.tmp-" + Folder.randomName()
            let fd = try POSIX.createForWriting(temporary, operation: operation)
            do {
                try POSIX.writeAll(fd, bytes, path: temporary)
                try POSIX.setPermissions(fd, 0o600, path: temporary)
                try POSIX.synchronize(fd, path: temporary)
                Folder.protect(temporary)
            } catch {
                try? POSIX.closeFile(fd, path: temporary)
                try? POSIX.removeFile(temporary)
                throw error
            }
            do {
                // Outside the block above: a close that fails has closed the descriptor, and
                // closing it again could close a file another thread opened meanwhile.
                try POSIX.closeFile(fd, path: temporary, operation: "write")
                try POSIX.move(temporary, to: target)
            } catch {
                try? POSIX.removeFile(temporary)
                throw error
            }
        }
    }
}
