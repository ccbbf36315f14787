import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs CPU-bound test work on a thread of its own at the lowest scheduling priority, off
/// Swift's cooperative pool, so that it takes only the time the tests running beside it
/// leave free instead of holding the pool's few threads while their answers wait.
///
/// A hang is caught by the CPU time the work uses, never by wall time: at the lowest
/// priority on a busy machine (a load of 30 on two cores was seen) the work may wait many
/// minutes for the CPU, and a wall-clock limit then fails a test that did nothing wrong.
package enum ShardThread {
    /// The value of `work`, computed on a new thread; the process stops with a message when
    /// the work uses more than `cpuLimit` of CPU time (a hang: a loop that never ends).
    package static func run<T: Sendable>(cpuLimit: Duration, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                lowerPriority()
                let watchdog = Watchdog(limit: cpuLimit)
                let value = work()
                watchdog.stop()
                continuation.resume(returning: value)
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Watches the CPU time of the thread that made it, from a thread of its own that looks
    /// every second (a look, not a wait that decides anything).
    private final class Watchdog: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false  // Under `lock`.

        init(limit: Duration) {
            #if os(Linux)
            var clock = clockid_t()
            guard pthread_getcpuclockid(pthread_self(), &clock) == 0 else { return }
            let watched = clock
            let thread = Thread { [self] in
                while !lock.withLock({ done }) {
                    var time = timespec()
                    clock_gettime(watched, &time)
                    if .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec) > limit {
                        fatalError("a shard used more than \(limit) of CPU time: the generator hangs on a case (CACHEGEN_FUZZ_TRACE=1 names it)")
                    }
                    Thread.sleep(forTimeInterval: 1)
                }
            }
            thread.start()
            #endif
        }

        func stop() {
            lock.withLock { done = true }
        }
    }

    /// The CPU time the calling thread has used so far.
    package static func cpuTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// Nice 19 for the calling thread: on Linux the nice value is a thread's own, and
    /// `setpriority(PRIO_PROCESS, 0, …)` sets the calling thread's (setpriority(2), "Bugs").
    private static func lowerPriority() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #else
        Thread.current.qualityOfService = .background
        #endif
    }
}
