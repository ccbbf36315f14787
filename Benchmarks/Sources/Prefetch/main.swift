// Prefetch figures ("Available offline on purpose", issue 39 item 4): a plain executable that
// prints, never a timed test. It serves a 1 KB feed page over 127.0.0.1 (BenchSupport's
// LoopbackServer), makes 1,000 `PrefetchCall`s from the generated `LiveFeedRepository`
// (pages 1…1,000), prefetches them into a `FileCacheStore`, and prints the time, the
// progress events an observer saw, the plan file and the process's peak memory; then the
// same plan again (everything done: what a relaunch's resume costs) and a store sweep with
// every entry pinned.
//
//   swift build --package-path Benchmarks -c release --product Prefetch
//   Benchmarks/.build/release/Prefetch [CALLS] [BYTES] [WIDTH]

@_spi(Generated) import BenchSupport
@_spi(Generated) import CachedClientRuntime
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let callCount = arguments.first ?? 1_000
let bytes = arguments.dropFirst().first ?? 1_024
let width = arguments.dropFirst(2).first ?? 4

/// The process's resource usage so far.
func resourceUsage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

/// Peak resident memory of the process so far, in MB.
func peakMB() -> Double {
    let usage = resourceUsage()
    #if canImport(Darwin)
    return Double(usage.ru_maxrss) / 1_048_576
    #else
    return Double(usage.ru_maxrss) / 1_024
    #endif
}

/// CPU seconds (user + system) of the process so far.
func cpuSeconds() -> Double {
    let usage = resourceUsage()
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

let server = try LoopbackServer(body: Payloads.feed(bytes: bytes))
let directory = try makeTemporaryDirectory("prefetch")
defer { try? FileManager.default.removeItem(at: directory) }
let store = try FileCacheStore(directory: directory, maxBytes: 1 << 20, maxAge: 3_600)
let client = CachedClient(baseURL: server.baseURL, store: store, partition: "user-1")
let repository = LiveFeedRepository(client: client)
let memoryBefore = peakMB()

let clock = ContinuousClock()
var start = clock.now
var calls: [PrefetchCall] = []
calls.reserveCapacity(callCount)
for page in 1...callCount {
    calls.append(try await PrefetchCall { try await repository.getItems(feedId: "home", page: page) })
}
let makeTime = clock.now - start

start = clock.now
let cpuStart = cpuSeconds()
let job = client.prefetch(named: "bench", calls, maxConcurrentCalls: width)
let observer = Task {
    var events = 0
    for await _ in job.updates() { events += 1 }
    return events
}
let progress = await job.result()
let prefetchTime = clock.now - start
let prefetchCPU = cpuSeconds() - cpuStart
let events = await observer.value
let memoryAfter = peakMB()

// The plan's one file, in the partition's `.prefetch` folder.
let planBytes = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
    .filter { $0.contains("/.prefetch/") && !$0.contains("/.tmp-") }
    .compactMap { try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + $0)[.size] as? Int }
    .reduce(0, +)

start = clock.now
var cpu = cpuSeconds()
let again = await client.prefetch(named: "bench", calls, maxConcurrentCalls: width).result()
let resumeTime = clock.now - start
let resumeCPU = cpuSeconds() - cpu

start = clock.now
cpu = cpuSeconds()
await store.trim()
let sweepTime = clock.now - start
let sweepCPU = cpuSeconds() - cpu
let kept = try await store.entryCount()

print("prefetch of \(callCount) calls, \(bytes)-byte answers, \(width) at a time, FileCacheStore over 127.0.0.1")
print(String(format: "  make the calls (PrefetchCall { repository.getItems(…) }): %.1f ms", milliseconds(makeTime)))
print(String(format: "  prefetch: %.0f ms wall, %.2f s CPU, %.2f ms per call", milliseconds(prefetchTime), prefetchCPU,
    milliseconds(prefetchTime) / Double(callCount)))
print("  result: \(progress.completed) of \(progress.total) done, \(progress.failed) failed, \(progress.bytes) bytes, \(progress.state)")
print("  progress events seen by one observer: \(events); server requests: \(server.requestCount)")
print("  plan file: \(planBytes) bytes")
print(String(format: "  peak memory: %.1f MB before the prefetch, %.1f MB after (+%.1f MB)", memoryBefore, memoryAfter,
    memoryAfter - memoryBefore))
print(String(format: "  the same plan again, all done (a relaunch's resume): %.1f ms wall, %.2f s CPU, %d of %d",
    milliseconds(resumeTime), resumeCPU, again.completed, again.total))
print(String(format: "  sweep with maxBytes 1 MB, every entry pinned: %.1f ms wall, %.2f s CPU, %d entries kept",
    milliseconds(sweepTime), sweepCPU, kept))
server.stop()
