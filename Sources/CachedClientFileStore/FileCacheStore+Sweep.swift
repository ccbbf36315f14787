@_spi(RuntimeLayers) import CachedClientValues
import Foundation

// Limits and size tracking. The store keeps a running byte and entry count in memory. It
// is unknown when the store is opened (opening lists nothing) and is learnt by the first
// sweep: one walk over all entry files that removes entries unused for longer than
// `maxAge`, then, if the total is over `maxBytes`, the least recently used entries until it
// is under 90% of `maxBytes` (so the next sweep is not one write away). "Used" means last
// read or written: the file's modification date is set on each write and on a read when it
// is `touchGranularity` or more old. Between sweeps the count is kept by this process's
// writes and removals; another process writing to the same folder makes it approximate
// until the next sweep. Entries a prefetch plan pins are counted and never evicted, even when
// they alone are over `maxBytes` (see `FileCacheStore+Pinning.swift`).
extension FileCacheStore {
    /// Writes between two sweeps when limits are set, to catch drift and other processes' writes.
    package static let sweepEveryWrites = 1_000
    /// Time between two sweeps when limits are set.
    package static let sweepInterval: TimeInterval = 3_600
    /// A temporary file older than this (by the real clock) was left by a crashed writer.
    package static let abandonedFileAge: TimeInterval = 600
    /// A read refreshes the last-use date only when it is at least this old, sparing a
    /// metadata write (`futimens`) on most reads: with many entries nearly every read would
    /// otherwise find its file's date older than a finer granularity.
    ///
    /// Coarse on purpose. Least-recently-used eviction needs only the order of uses to the
    /// hour, and `maxAge` loses nothing: reads judge it by the entry's stored date, which for
    /// what `CachedClient` writes (the answer's time) is no later than the file's write, so
    /// a sweep that drops a file untouched for longer than `maxAge` drops only what a read
    /// would refuse anyway.
    package static let touchGranularity: TimeInterval = 3_600

    /// The bytes of all entry files, headers included; the first call after opening walks
    /// the entries once, later ones are answered from memory.
    public func totalSize() async throws -> Int {
        await currentUsage().bytes
    }

    /// The number of entries; counted like `totalSize()`.
    public func entryCount() async throws -> Int {
        await currentUsage().count
    }

    /// Applies `maxAge` and `maxBytes` now and recounts the store; for moments an app has
    /// time to spare, such as moving to the background. Waits for a running sweep first.
    public func trim() async {
        while true {
            let (task, isOurs) = state.withLock { state -> (Task<Void, Never>, Bool) in
                if let running = state.sweep { return (running, false) }
                return (startSweep(&state), true)
            }
            await task.value
            if isOurs { return }
        }
    }

    /// Waits for a sweep started by a write, so tests can look at its result.
    package func waitForSweep() async {
        if let task = state.withLock({ $0.sweep }) { await task.value }
    }

    private func currentUsage() async -> Usage {
        for _ in 0..<3 {
            if let usage = state.withLock({ $0.usage }) { return usage.clamped }
            await trim()
        }
        return state.withLock { $0.usage }?.clamped ?? Usage()
    }

    /// Adds a change this process made to the running count, and starts a sweep when a write
    /// makes one due.
    package func record(_ change: Usage, isWrite: Bool) {
        let now = isWrite ? self.now() : Date.distantPast
        state.withLock { state in
            state.usage?.add(change)
            if state.sweep != nil { state.changesDuringSweep.add(change) }
            guard isWrite else { return }
            state.writesSinceSweep += 1
            if needsSweep(state, now: now) { _ = startSweep(&state) }
        }
    }

    /// With limits set: when the count is unknown, over `maxBytes`, after
    /// `sweepEveryWrites` writes, or `sweepInterval` after the last sweep.
    private func needsSweep(_ state: State, now: Date) -> Bool {
        guard maxBytes != nil || maxAge != nil, state.sweep == nil else { return false }
        guard let usage = state.usage else { return true }
        if let maxBytes, usage.bytes > maxBytes { return true }
        if state.writesSinceSweep >= Self.sweepEveryWrites { return true }
        if maxAge != nil {
            guard let last = state.lastSweep else { return true }
            return now.timeIntervalSince(last) >= Self.sweepInterval
        }
        return false
    }

    /// Starts a sweep in a detached background-priority task, off the caller's path; called
    /// with the state locked so only one runs.
    private func startSweep(_ state: inout State) -> Task<Void, Never> {
        state.changesDuringSweep = Usage()
        state.bulkRemovalDuringSweep = false
        let task = Task.detached(priority: .background) { [self] in self.sweep() }
        state.sweep = task
        return task
    }

    /// One walk over every entry file: drops abandoned temporary files, entries unused for
    /// longer than `maxAge`, then least recently used entries while over `maxBytes`.
    private func sweep() {
        let now = self.now()
        removeAbandonedTrash()
        let files = scanEntries()
        var bytes = files.reduce(0) { $0 + $1.size }
        var count = files.count
        var kept: [EntryFile] = []
        kept.reserveCapacity(files.count)
        // Entries a prefetch plan pins are counted, never evicted.
        let pinned = pinnedPaths()
        if let maxAge {
            let cutoff = now.timeIntervalSince1970 - maxAge
            for file in files {
                if file.lastUse < cutoff, !pinned.contains(file.path),
                    evict(file, now: now, reason: "evicted: unused for longer than maxAge")
                {
                    bytes -= file.size
                    count -= 1
                } else {
                    kept.append(file)
                }
            }
        } else {
            kept = files
        }
        if let maxBytes, bytes > maxBytes {
            let goal = maxBytes - maxBytes / 10
            kept.sort { ($0.lastUse, $0.path) < ($1.lastUse, $1.path) }
            for file in kept where !pinned.contains(file.path) {
                guard bytes > goal else { break }
                if evict(file, now: now, reason: "evicted: over maxBytes") {
                    bytes -= file.size
                    count -= 1
                }
            }
        }
        state.withLock { state in
            if state.bulkRemovalDuringSweep {
                state.usage = nil
            } else {
                var usage = Usage(bytes: bytes, count: count)
                usage.add(state.changesDuringSweep)
                state.usage = usage
            }
            state.changesDuringSweep = Usage()
            state.bulkRemovalDuringSweep = false
            state.writesSinceSweep = 0
            state.lastSweep = now
            state.sweep = nil
        }
    }

    /// Every entry file with its size and last use; removes empty folders and abandoned
    /// temporary files on the way.
    private func scanEntries() -> [EntryFile] {
        let abandonedBefore = Date().timeIntervalSince1970 - Self.abandonedFileAge
        var result: [EntryFile] = []
        // An empty folder is removed; a writer racing this recreates it (see
        // createTemporaryFile). A parent emptied this way goes in the next sweep.
        for partition in POSIX.list(entriesPath) where !partition.hasPrefix(".") {
            let partitionPath = entriesPath + "/" + partition
            let endpoints = POSIX.list(partitionPath)
            for endpoint in endpoints where !endpoint.hasPrefix(".") {
                let endpointPath = partitionPath + "/" + endpoint
                let paths = POSIX.list(endpointPath)
                for path in paths where !path.hasPrefix(".") {
                    let folder = endpointPath + "/" + path
                    let names = POSIX.list(folder)
                    if names.isEmpty {
                        try? POSIX.removeEmptyFolder(folder)
                        continue
                    }
                    for name in names {
                        let file = folder + "/" + name
                        guard let info = try? POSIX.status(atPath: file) else { continue }
                        if name.hasPrefix(".tmp-") {
                            // The change time, unlike the modification time, is not set from `now()`.
                            if info.changeTime < abandonedBefore { try? POSIX.removeFile(file) }
                            continue
                        }
                        guard Self.isDigest(name), info.isRegularFile else { continue }
                        result.append(EntryFile(
                            path: file, name: name, size: info.size, lastUse: info.modificationTime))
                    }
                }
                if paths.isEmpty { try? POSIX.removeEmptyFolder(endpointPath) }
            }
            if endpoints.isEmpty { try? POSIX.removeEmptyFolder(partitionPath) }
        }
        return result
    }

    /// Removes a file the sweep chose, unless it changed since the scan; reports it.
    private func evict(_ file: EntryFile, now: Date, reason: String) -> Bool {
        guard let info = try? POSIX.status(atPath: file.path), info.size == file.size,
            info.modificationTime == file.lastUse
        else { return false }
        let header = events == nil ? nil : Self.readHeader(file.path)
        guard (try? POSIX.removeFile(file.path)) != nil else { return false }
        report(
            endpoint: header?.endpoint ?? "", digest: file.name,
            age: header.map { now.timeIntervalSince($0.date) }, message: reason)
        return true
    }

    /// The endpoint name and stored date of an entry file, for naming it in an event
    /// without reading (or checking) the whole file.
    private static func readHeader(_ path: String) -> (endpoint: String, date: Date)? {
        let header = try? POSIX.readPrefix(of: path, capacity: CacheFileFormat.headerPrefixSize) { prefix in
            prefix.isEmpty ? nil : CacheFileFormat.header(of: prefix)
        }
        return header ?? nil
    }
}

/// One entry file as a sweep saw it.
private struct EntryFile {
    package var path: String
    package var name: String
    package var size: Int
    package var lastUse: Double
}
