import CachedClientStore
@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// The pins of a folder an inspection reads: the prefetch plans in each partition's `.prefetch`
// folder (`FileCacheStore+Pinning.swift`), read as the store reads them, but read-only: a plan
// that does not read back is left where it is (the store removes it on its next read) and
// pins nothing.
extension FileCacheStore.FolderReader {
    /// The digests of the entries the folder's prefetch plans pin, done or not.
    package func inspectionPinnedDigests() throws -> Set<String> {
        let entries = rootPath + "/" + FileCacheStore.layoutFolderName
        var digests = Set<String>()
        for partition in POSIX.list(entries) where !partition.hasPrefix(".") {
            let folder = entries + "/" + partition + "/" + FileCacheStore.prefetchFolderName
            for name in POSIX.list(folder) where !name.hasPrefix(".") {
                guard let plan = Self.readPlan(folder + "/" + name),
                    FileCacheStore.partitionFolderName(plan.partition) == partition,
                    FileCacheStore.prefetchFileName(plan.name) == name
                else { continue }
                for key in plan.pinnedKeys { digests.insert(key.digest) }
            }
        }
        return digests
    }

    /// The plan in a file, opened without following a link or blocking; `nil` when it is not
    /// a whole plan file.
    private static func readPlan(_ path: String) -> PrefetchPlan? {
        guard let fd = try? POSIX.openForReading(path) else { return nil }
        defer { try? POSIX.closeFile(fd, path: path) }
        guard let info = try? POSIX.status(of: fd, path: path), info.isRegularFile, info.size <= PrefetchRecord.maxSize,
            let buffer = try? POSIX.readAll(fd, capacity: info.size, path: path)
        else { return nil }
        return PrefetchRecord.decode(Data(buffer.bytes))
    }
}
