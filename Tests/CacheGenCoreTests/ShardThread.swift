import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs CPU-bound test work on a thread of its own at the lowest scheduling priority, off
/// Swift's cooperative pool, so that it takes only the time the tests running beside it
/// leave free instead of holding the pool's few threads while their answers wait.
enum ShardThread {
    /// The value of `work`, computed on a new thread.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                lowerPriority()
                continuation.resume(returning: work())
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// The CPU time the calling thread has used so far.
    static func cpuTime() -> Duration {
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
