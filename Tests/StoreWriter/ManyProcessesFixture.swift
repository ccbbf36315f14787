@_spi(Generated) import CachedClientRuntime
import FixtureServerSupport
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The roles of the many-processes test: processes that write, read and remove entries
/// (`churn`) while another signs the user `alice` out every 5 ms (`signOut`), all on one
/// store folder. Each prints one `RESULT` line of figures for the test to read.
///
/// How "no byte of alice is left after a sign-out" is checked without judging writes that
/// race the sign-out (which may land in the folder made anew): a gate file holds an epoch.
/// A write of alice's holds the gate's shared `flock` for its whole `setEntry` and puts
/// `ALICE-MARK-e<epoch>;` in its body. Before each sign-out the signing-out process takes
/// the exclusive lock (no alice write is under way), bumps the epoch and lets go, so every
/// alice body with an older epoch was completely written before the sign-out began. After
/// the sign-out returns it takes the exclusive lock again and reads every file under the
/// store's folder (entries, temporary files, trash): any older-epoch mark is a byte the
/// sign-out left behind.
enum ManyProcessesFixture {
    static let endpoint = "ManyProcesses.getItem"
    static let marker = Data("ALICE-MARK-e".utf8)
    static let itemCount = 30

    static func key(_ item: Int, partition: String?) -> CacheKey {
        let path = "/items/\(item % 6)"
        return CacheKey(
            text: "cachegen-key 1\nendpoint \(endpoint)\npath \(path)\nquery item=\(item)\npartition \(partition ?? "*shared*")",
            endpoint: endpoint, partition: partition, path: path)
    }

    /// Alice's bodies alone hold the marker; the rest is filler.
    static func body(_ item: Int, partition: String?, epoch: UInt64, size: Int) -> Data {
        var body = partition == "alice" ? Data("ALICE-MARK-e\(epoch);".utf8) : Data("\(partition ?? "shared") \(item);".utf8)
        body.append(Data(repeating: UInt8(ascii: partition == "alice" ? "a" : "b"), count: size))
        return body
    }

    /// Writes (alice's under the gate), reads and removes single entries for `seconds`.
    static func churn(directory: String, gate: String, seconds: Double, seed: UInt64) async {
        var figures = Figures(role: "churn")
        defer { figures.print() }
        guard let store = figures.attempt({ try FileCacheStore(directory: URL(fileURLWithPath: directory)) }) else { return }
        let gate = Gate(path: gate)
        var random = SplitMix64(seed: seed)
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            let item = Int(random.next() % UInt64(itemCount))
            let roll = random.next() % 100
            let size = 200 + Int(random.next() % 3_000)
            do {
                switch roll {
                case 0..<40:
                    try await gate.whileShared {
                        let body = body(item, partition: "alice", epoch: gate.epoch, size: size)
                        try await store.setEntry(CacheEntry(body: body, date: Date()), for: key(item, partition: "alice"))
                    }
                case 40..<55:
                    let partition = roll.isMultiple(of: 2) ? "bob" : nil
                    let body = body(item, partition: partition, epoch: 0, size: size)
                    try await store.setEntry(CacheEntry(body: body, date: Date()), for: key(item, partition: partition))
                case 55..<60:
                    try await store.removeEntry(for: key(item, partition: roll.isMultiple(of: 2) ? "bob" : nil))
                default:
                    let partition = roll.isMultiple(of: 2) ? "alice" : "bob"
                    if let entry = try await store.entry(for: key(item, partition: partition)),
                        (entry.body.range(of: marker) != nil) != (partition == "alice")
                    {
                        figures.fail("a read of \(partition)'s item \(item) returned another partition's body")
                    }
                }
                figures.operations += 1
            } catch {
                figures.fail("\(error)")
            }
        }
    }

    /// Signs alice out every 5 ms for `seconds`, checking after each sign-out that none of
    /// what she had before it is left anywhere under the folder.
    static func signOut(directory: String, gate: String, seconds: Double) async {
        var figures = Figures(role: "sign-out")
        defer { figures.print() }
        guard let store = figures.attempt({ try FileCacheStore(directory: URL(fileURLWithPath: directory)) }) else { return }
        let gate = Gate(path: gate)
        let clock = ContinuousClock()
        let end = clock.now + .seconds(seconds)
        var next = clock.now
        while clock.now < end {
            // Every 10th time, count what alice has before the sign-out, to show the check
            // after it is not vacuous; not every time, since a scan reads every file.
            let countBefore = figures.operations.isMultiple(of: 10)
            let epoch = gate.whileExclusive { () -> UInt64 in
                gate.epoch += 1
                if countBefore { figures.aliceFilesBefore += scan(directory, olderThan: gate.epoch).files }
                return gate.epoch
            }
            let started = clock.now
            do {
                try await store.removeAll(partition: "alice")
                figures.operations += 1
            } catch {
                figures.fail("\(error)")
            }
            figures.signOutTime += clock.now - started
            let checkStarted = clock.now
            let left = gate.whileExclusive { scan(directory, olderThan: epoch) }
            figures.checkTime += clock.now - checkStarted
            figures.filesLeft += left.files
            figures.bytesLeft += left.bytes
            // Pacing only: the next sign-out 5 ms after this one began.
            next += .milliseconds(5)
            if next > clock.now { try? await clock.sleep(until: next) } else { next = clock.now }
        }
    }

    /// Files under `folder` holding alice's mark with an epoch below `epoch`, and their bytes.
    static func scan(_ folder: String, olderThan epoch: UInt64) -> (files: Int, bytes: Int) {
        var result = (files: 0, bytes: 0)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if Int(info.st_mode) & Int(S_IFMT) == Int(S_IFDIR) {
                let inner = scan(path, olderThan: epoch)
                result = (result.files + inner.files, result.bytes + inner.bytes)
            } else if Int(info.st_mode) & Int(S_IFMT) == Int(S_IFREG), let data = FileManager.default.contents(atPath: path),
                marks(in: data).contains(where: { $0 < epoch })
            {
                result = (result.files + 1, result.bytes + data.count)
            }
        }
        return result
    }

    /// The epochs of every mark in `data`.
    static func marks(in data: Data) -> [UInt64] {
        var epochs: [UInt64] = []
        var start = data.startIndex
        while let found = data.range(of: marker, in: start..<data.endIndex) {
            let digits = data[found.upperBound...].prefix { (0x30...0x39).contains($0) }
            epochs.append(UInt64(String(decoding: digits, as: UTF8.self)) ?? 0)
            start = found.upperBound
        }
        return epochs
    }
}

/// The figures one process prints as its `RESULT` line.
struct Figures {
    let role: String
    var operations = 0
    var errors = 0
    /// Alice's files found before every 10th sign-out.
    var aliceFilesBefore = 0
    var filesLeft = 0
    var bytesLeft = 0
    /// Time spent in `removeAll(partition:)`, and in waiting for and scanning after it.
    var signOutTime = Duration.zero
    var checkTime = Duration.zero
    private var messages: [String] = []

    init(role: String) { self.role = role }

    mutating func fail(_ message: String) {
        errors += 1
        if messages.count < 5 { messages.append(message) }
    }

    mutating func attempt<T>(_ body: () throws -> T) -> T? {
        do { return try body() } catch {
            fail("\(error)")
            return nil
        }
    }

    private func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    func print() {
        for message in messages { FileHandle.standardError.write(Data("\(role): \(message)\n".utf8)) }
        let line = "RESULT role=\(role) operations=\(operations) errors=\(errors) aliceFilesBefore=\(aliceFilesBefore) "
            + "filesLeft=\(filesLeft) bytesLeft=\(bytesLeft) signOutMilliseconds=\(milliseconds(signOutTime)) "
            + "checkMilliseconds=\(milliseconds(checkTime))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}

/// The gate file: an epoch (8 bytes) and its `flock`. `@unchecked Sendable`: one task uses it.
final class Gate: @unchecked Sendable {
    private let fd: Int32

    init(path: String) {
        fd = open(path, O_RDWR | O_CLOEXEC)
        precondition(fd >= 0, "cannot open the gate file \(path): \(errno)")
    }

    deinit { close(fd) }

    var epoch: UInt64 {
        get {
            var value: UInt64 = 0
            _ = pread(fd, &value, 8, 0)
            return value
        }
        set {
            var value = newValue
            _ = pwrite(fd, &value, 8, 0)
        }
    }

    func whileShared<T>(_ body: () async throws -> T) async rethrows -> T {
        flock(fd, LOCK_SH)
        defer { flock(fd, LOCK_UN) }
        return try await body()
    }

    func whileExclusive<T>(_ body: () throws -> T) rethrows -> T {
        flock(fd, LOCK_EX)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
