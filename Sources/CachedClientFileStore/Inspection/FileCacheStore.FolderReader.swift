import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues
import Foundation

extension FileCacheStore {
    /// Reads one store folder for an inspection (`FileCacheStore+Inspection.swift`): the walk
    /// of `v2/<partition>/<endpoint>/<path>/<digest>` and each partition's `.outbox`, every file
    /// checked as a read checks it, nothing removed or touched.
    package struct FolderReader: CacheInspectionPins {
        /// The folder read, laid out as a store lays it out.
        package let folder: Folder
        /// The store's folder, without a trailing slash.
        package var rootPath: String { folder.rootPath }

        /// A reader of the store in `directory`.
        package init(directory: URL) {
            folder = Folder(directory: directory)
        }

        /// Walks `v2/<partition>/<endpoint>/<path>/<digest>` and each partition's `.outbox`.
        package func inspect(_ options: CacheInspection.Options) throws(FileCacheStoreError) -> CacheInspection {
            let entries = folder.entriesPath
            guard let info = try? POSIX.status(atPath: entries), info.isFolder else {
                throw FileCacheStoreError.notFound(operation: "find a cache (a \(Folder.layoutFolderName) folder) in", path: rootPath)
            }
            var builder = CacheInspection.Builder(options: options)
            builder.pinned = (try? inspectionPinnedDigests()) ?? []
            let layout = Folder.layoutFolderName
            for partition in try POSIX.names(in: entries) where !partition.hasPrefix(".") {
                let partitionPath = layout + "/" + partition
                guard let endpoints = folderNames(partitionPath, into: &builder) else { continue }
                let folderPartition = partition == "shared" ? nil : partition
                for endpoint in endpoints {
                    if endpoint == Folder.outboxFolderName {
                        readOutbox(partitionPath + "/" + endpoint, partitionFolder: partition, into: &builder)
                        continue
                    }
                    if endpoint.hasPrefix(".") { continue }
                    let endpointPath = partitionPath + "/" + endpoint
                    guard let paths = folderNames(endpointPath, into: &builder) else { continue }
                    for path in paths where !path.hasPrefix(".") {
                        let pathPath = endpointPath + "/" + path
                        guard let files = folderNames(pathPath, into: &builder) else { continue }
                        // Dot names are a writer's temporary files.
                        for file in files where !file.hasPrefix(".") {
                            let relative = pathPath + "/" + file
                            guard Folder.isDigest(file) else {
                                builder.addUnreadable(file: relative, reason: "not an entry's name")
                                continue
                            }
                            readEntry(
                                relative, partitionFolder: partition, endpointFolder: endpoint,
                                folderPartition: folderPartition, into: &builder)
                        }
                    }
                }
            }
            return builder.finish()
        }

        /// The names in a folder of the layout; `nil`, with the folder reported, when it is not
        /// a folder or cannot be listed (gone since it was listed: `nil`, nothing reported).
        private func folderNames(_ relative: String, into builder: inout CacheInspection.Builder) -> [String]? {
            let path = rootPath + "/" + relative
            do throws(FileCacheStoreError) {
                let info = try POSIX.status(atPath: path)
                guard info.isFolder else {
                    builder.addUnreadable(file: relative, reason: "not a folder of the cache's layout")
                    return nil
                }
                return try POSIX.names(in: path)
            } catch {
                if !error.isNoSuchPath { builder.addUnreadable(file: relative, reason: Self.reason(error)) }
                return nil
            }
        }

        /// Reads, checks and adds one entry file, or reports why it is not one.
        private func readEntry(
            _ relative: String, partitionFolder: String, endpointFolder: String, folderPartition: String?,
            into builder: inout CacheInspection.Builder
        ) {
            let path = rootPath + "/" + relative
            let fd: Int32
            do throws(FileCacheStoreError) {
                fd = try POSIX.openForReading(path)
            } catch {
                if error.isNoSuchPath { return }
                let isFile = (try? POSIX.status(atPath: path))?.isRegularFile ?? true
                builder.addUnreadable(file: relative, reason: isFile ? Self.reason(error) : CacheFileFormat.Problem.notAFile.reason)
                return
            }
            defer { try? POSIX.closeFile(fd, path: path) }
            do throws(FileCacheStoreError) {
                let info = try POSIX.status(of: fd, path: path)
                guard info.isRegularFile else {
                    builder.addUnreadable(file: relative, reason: CacheFileFormat.Problem.notAFile.reason)
                    return
                }
                var buffer = try POSIX.readAll(fd, capacity: min(info.size, FileCacheStore.firstReadSize), path: path)
                switch CacheFileFormat.fileSize(header: buffer.bytes) {
                case .failure(let problem):
                    builder.addUnreadable(file: relative, reason: problem.reason)
                    return
                case .success(let expected) where expected != info.size:
                    let problem: CacheFileFormat.Problem = expected < info.size ? .longerThanHeader : .truncated
                    builder.addUnreadable(file: relative, reason: problem.reason)
                    return
                case .success:
                    if info.size > buffer.count { try POSIX.readMore(fd, into: &buffer, upTo: info.size, path: path) }
                }
                guard let stored = CacheFileFormat.storedKey(in: buffer.bytes) else {
                    builder.addUnreadable(file: relative, reason: CacheFileFormat.Problem.truncated.reason)
                    return
                }
                let layout: CacheFileFormat.Layout
                switch CacheFileFormat.decode(buffer.bytes, keyText: stored.text) {
                case .failure(let problem):
                    builder.addUnreadable(file: relative, reason: problem.reason)
                    return
                case .success(let found):
                    layout = found
                }
                // A file the store would never read under its key (copied or moved here).
                let digest = String(relative.split(separator: "/").last ?? "")
                guard SHA256.hex(of: stored.text) == digest, Folder.endpointFolderName(stored.endpoint) == endpointFolder,
                    Self.partitionFolder(ofKeyText: stored.text).map({ $0 == partitionFolder }) ?? true
                else {
                    builder.addUnreadable(file: relative, reason: CacheFileFormat.Problem.keyMismatch.reason)
                    return
                }
                let bodyRange = layout.bodyOffset..<layout.bodyOffset + layout.bodyCount
                builder.addEntry(
                    keyText: stored.text, folderPartition: folderPartition, endpoint: stored.endpoint, digest: digest,
                    bytes: info.size, date: layout.date, freshness: layout.freshness,
                    body: builder.options.includeValues ? Data(buffer.bytes[bodyRange]) : nil)
            } catch {
                if !error.isNoSuchPath { builder.addUnreadable(file: relative, reason: Self.reason(error)) }
            }
        }

        /// Reads a partition's queued mutations, as `queuedMutations(partition:)` does but
        /// without removing a writer's abandoned temporary file.
        private func readOutbox(_ relative: String, partitionFolder: String, into builder: inout CacheInspection.Builder) {
            guard let names = folderNames(relative, into: &builder) else { return }
            for name in names where !name.hasPrefix(".") {
                let file = relative + "/" + name
                guard let (sequence, id) = Outbox.parseFileName(name) else {
                    builder.addUnreadable(file: file, reason: "not a queued mutation's name")
                    continue
                }
                let path = rootPath + "/" + file
                let fd: Int32
                do throws(FileCacheStoreError) {
                    fd = try POSIX.openForReading(path)
                } catch {
                    if error.isNoSuchPath { continue }
                    let isFile = (try? POSIX.status(atPath: path))?.isRegularFile ?? true
                    builder.addUnreadable(file: file, reason: isFile ? Self.reason(error) : "not a file")
                    continue
                }
                defer { try? POSIX.closeFile(fd, path: path) }
                do throws(FileCacheStoreError) {
                    let info = try POSIX.status(of: fd, path: path)
                    guard info.isRegularFile else {
                        builder.addUnreadable(file: file, reason: "not a file")
                        continue
                    }
                    guard info.size <= OutboxRecord.maxSize else {
                        builder.addUnreadable(file: file, reason: "larger than a record can be")
                        continue
                    }
                    let buffer = try POSIX.readAll(fd, capacity: info.size, path: path)
                    guard let mutation = OutboxRecord.decode(Data(buffer.bytes)) else {
                        builder.addUnreadable(file: file, reason: "damaged or of an unknown format")
                        continue
                    }
                    guard mutation.id == id, mutation.sequence == sequence,
                        Folder.partitionFolderName(mutation.partition) == partitionFolder
                    else {
                        builder.addUnreadable(file: file, reason: "its name does not match its content")
                        continue
                    }
                    builder.addMutation(mutation)
                } catch {
                    if !error.isNoSuchPath { builder.addUnreadable(file: file, reason: Self.reason(error)) }
                }
            }
        }

        /// The partition folder a key's text belongs in; `nil` when it names no partition.
        private static func partitionFolder(ofKeyText text: String) -> String? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("partition ") }) else { return nil }
            let value = String(line.dropFirst("partition ".count))
            if value == "*shared*" || value == "*signed-out*" { return Folder.partitionFolderName(nil) }
            return Folder.partitionFolderName(value.removingPercentEncoding ?? value)
        }

        /// `cannot be read: Permission denied (errno 13)`: the system's reason, without the path.
        private static func reason(_ error: FileCacheStoreError) -> String {
            "could not \(error.operation): \(String(cString: strerror(error.code))) (errno \(error.code))"
        }
    }
}
