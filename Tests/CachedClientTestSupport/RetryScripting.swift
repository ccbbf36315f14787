import Foundation

@_spi(Generated) import CachedClientRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The scripted answers and the harness of the retry tests, written once for the call path's
/// suite (`CachedClientRetryTests`) and the mutation layer's (`MutationCallTests`): a suite
/// adopts it and calls `harness(_:)` with `Self.status(_:)` and `Self.ok`.
package protocol RetryScripting {}

extension RetryScripting {
    /// A 200 with `Fixtures.alice`.
    package static var ok: Result<HTTPResponse, URLError> {
        .success(HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.alice)))
    }

    /// An answer with `code`, `headers` and the body `{}`.
    package static func status(_ code: Int, _ headers: [String: String] = [:]) -> Result<HTTPResponse, URLError> {
        .success(HTTPResponse(statusCode: code, headers: headers, body: Data("{}".utf8)))
    }

    /// A harness whose transport gives `answers` in turn and whose retries sleep through the
    /// `RecordingSleeper` returned with it (on the harness's clock).
    package func harness(_ answers: [Result<HTTPResponse, URLError>], configure: (RecordingSleeper) -> RetryPolicy = { $0.policy() })
        -> (Harness, RecordingSleeper)
    {
        let clock = TestClock()
        let sleeper = RecordingSleeper(clock: clock)
        let harness = Harness(transport: StubTransport(scripted(answers)), retry: configure(sleeper), clock: clock)
        return (harness, sleeper)
    }
}
