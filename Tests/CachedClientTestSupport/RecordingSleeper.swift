import FixtureServerSupport
import Foundation

@_spi(Generated) import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records every wait a retry asks for and moves the test clock by it instead of sleeping.
package final class RecordingSleeper: Sendable {
    private let waits = Locked<[Duration]>([])
    package let clock: TestClock

    package init(clock: TestClock) {
        self.clock = clock
    }

    package var recorded: [Duration] { waits.withLock { $0 } }

    /// A policy that sleeps through this recorder, with jitter fixed at `random`.
    package func policy(
        maxRetries: Int = 2, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(10),
        maxRetryAfter: Duration = .seconds(60), random: Double = 1
    ) -> RetryPolicy {
        RetryPolicy(
            maxRetries: maxRetries, baseDelay: baseDelay, maxDelay: maxDelay, maxRetryAfter: maxRetryAfter,
            sleep: { duration in
                try Task.checkCancellation()
                self.waits.withLock { $0.append(duration) }
                self.clock.advance(by: RetryPolicy.seconds(duration))
            },
            random: { random })
    }
}

/// Answers with the given responses in turn (the last one for ever after).
package func scripted(_ answers: [Result<HTTPResponse, URLError>]) -> StubTransport.Responder {
    let next = Locked(0)
    return { _ in
        let index = next.withLock { index in
            defer { index += 1 }
            return min(index, answers.count - 1)
        }
        return try answers[index].get()
    }
}
