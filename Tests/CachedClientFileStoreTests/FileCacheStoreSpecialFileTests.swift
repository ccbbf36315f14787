import StoreTestSupport
import Foundation
import Testing

import CachedClientFileStore
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Only regular files are read: whatever is planted at an entry's path (a FIFO, a socket,
/// a symbolic link, a device, a huge sparse file) is a miss, removed and reported, and the
/// read ends at once instead of blocking or reading gigabytes.
///
/// Every read runs with a deadline on a thread of its own (`finishing(within:)`), so a read
/// that blocks fails the test instead of hanging the run.
@Suite("FileCacheStore reads only regular files", .timeLimit(.minutes(1)))
struct FileCacheStoreSpecialFileTests {
    static let deadline = Duration.seconds(5)
    static let notAFile = "unreadable entry removed: not a regular file"

    @Test func aFIFOIsAMissRemovedAndReportedWithoutBlocking() async throws {
        try await withPlanted({ path in
            #expect(mkfifo(path, 0o600) == 0, "mkfifo: \(errno)")
        }, reason: Self.notAFile) { path in
            // A read that blocked in `open` is released by opening the other end, so the
            // thread it holds ends too.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
    }

    @Test func aUnixSocketIsAMissRemovedAndReported() async throws {
        try await withPlanted({ path in try makeUnixSocket(at: path) }, reason: Self.notAFile)
    }

    @Test func aSymbolicLinkToAValidEntryIsAMissAndOnlyTheLinkIsRemoved() async throws {
        try await withStore { store, directory, events, _ in
            let key = storeKey("1")
            try await store.setEntry(storeEntry("valid"), for: key)
            let path = store.entryPath(for: key)
            let elsewhere = directory.path + "/elsewhere"
            #expect(rename(path, elsewhere) == 0)
            #expect(symlink(elsewhere, path) == 0)

            try await expectMissRemovedAndReported(store, key, events: events, reason: Self.notAFile)
            #expect(FileManager.default.fileExists(atPath: elsewhere), "the link's target is not the store's to remove")
        }
    }

    @Test func aSymbolicLinkToADeviceIsAMissRemovedAndReported() async throws {
        try await withPlanted({ path in #expect(symlink("/dev/zero", path) == 0) }, reason: Self.notAFile)
    }

    @Test func aHugeSparseFileWithAValidHeaderIsRejectedByItsSizeBeforeItsBodyIsRead() async throws {
        try await withStore { store, _, events, _ in
            let key = storeKey("1")
            try await store.setEntry(storeEntry("a valid entry"), for: key)
            let path = store.entryPath(for: key)
            // The header of a valid small entry, then 1 GiB of holes.
            let fd = open(path, O_WRONLY)
            #expect(fd >= 0)
            #expect(ftruncate(fd, 1 << 30) == 0)
            close(fd)

            // The reason names the size check, which runs on the header alone: a store that
            // read the body first would report the file as malformed or damaged instead.
            try await expectMissRemovedAndReported(
                store, key, events: events, reason: "unreadable entry removed: longer than its header says")
        }
    }

    // MARK: - Helpers

    /// Plants something at an entry's path and checks the read is a prompt miss that
    /// removes and reports it; `release` frees a read that blocked.
    private func withPlanted(
        _ plant: (String) throws -> Void, reason: String, release: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        try await withStore { store, _, events, _ in
            let key = storeKey("1")
            let path = store.entryPath(for: key)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try plant(path)
            try await expectMissRemovedAndReported(store, key, events: events, reason: reason, release: release)
        }
    }

    private func expectMissRemovedAndReported(
        _ store: FileCacheStore, _ key: CacheKey, events: EventLog, reason: String,
        release: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        let path = store.entryPath(for: key)
        guard let result = await finishing(within: Self.deadline, { try await store.entry(for: key) }) else {
            release(path)
            Issue.record("the read did not finish within \(Self.deadline): it blocked")
            return
        }
        #expect(try result.get() == nil)
        var info = stat()
        #expect(lstat(path, &info) == -1 && errno == ENOENT, "what was planted is removed")
        #expect(events.all == [
            CacheEvent(kind: .evict, endpoint: "Accounts.get", key: String(key.digest.prefix(16)), message: reason)
        ])
    }
}

/// Binds a unix socket at `path`. Socket addresses hold about 100 bytes, less than an
/// entry's path, so it is bound at a short path and renamed into place.
private func makeUnixSocket(at path: String) throws {
    let short = "/tmp/cg-\(String(UInt32.random(in: .min ... .max), radix: 16))"
    #if canImport(Glibc) || canImport(Musl)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    try #require(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in short.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0, "bind: \(errno)")
    try #require(rename(short, path) == 0, "rename: \(errno)")
}
