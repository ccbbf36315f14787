import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replacing a file's contents atomically, as `Data.write(to:options: .atomic)` does: the
/// bytes go to a new file in the same folder, which is then renamed over the old one, so a
/// reader (a build compiling the generated code) never sees half a file.
///
/// Implementation note: Foundation also calls `fsync` on every file it writes and waits for
/// the disk: 1 to 4 ms a file here, 41 files a spec, which was a third of the whole run on a
/// large document. Generated files need no such durability (after a crash they are generated
/// again), so this writes and renames without it. When any step fails, it removes its
/// temporary file and hands the write to Foundation, which then succeeds or throws the error
/// it always threw, so what the user reads is unchanged.
enum AtomicFile {
    /// Writes `data` to the file at `url`, replacing it atomically.
    static func write(_ data: Data, to url: URL) throws {
        if writeWithoutSync(data, to: url) { return }
        try data.write(to: url, options: .atomic)
    }

    /// How many temporary files this process has made, so each has a name of its own.
    nonisolated(unsafe) private static var made = 0

    /// The write itself; `false` when a step failed, leaving no temporary file.
    private static func writeWithoutSync(_ data: Data, to url: URL) -> Bool {
        made += 1
        // Hidden and named after the process, so it is never a generated file's name nor
        // another run's temporary file.
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(made).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { buffer in writeAll(buffer, to: descriptor) }
        guard close(descriptor) == 0, written, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Writes every byte of `buffer`; `false` when the system refuses one.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let count = systemWrite(descriptor, base + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}

/// The system's `write(2)`, named apart from `AtomicFile.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
