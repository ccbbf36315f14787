import CachedClientTestSupport
import FixtureServerSupport
import Foundation
import StoreTestSupport
import Testing

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What real networks and broken servers do wrong, through a real `CachedClient`,
/// `URLSessionTransport` and `FileCacheStore` against the fixture server's fault modes: a body
/// cut short, a `Content-Length` that lies, a reset after the head, a stall, a trickle, bytes
/// after a valid body, and a 200 whose body is invalid JSON or an HTML page.
///
/// For each: no call hangs (every wait has a deadline), nothing is stored that did not arrive
/// whole and decode (the store has no entry, or still the good one from before), `networkFirst`
/// answers from the store when the failure is the network's, and the error says what happened.
@Suite("Integration: network faults", .timeLimit(.minutes(1)))
struct NetworkFaultIntegrationTests {
    /// The good answer's bytes, as the server sends them: `{"balance":10,"id":"1"}`.
    static let good = String(decoding: Fixtures.body(Fixtures.alice), as: UTF8.self)
    static let json = ["Content-Type": "application/json"]
    static let html = "<!DOCTYPE html>\n<html><head><title>Sign in to the Wi-Fi</title></head><body><form>Accept</form></body></html>"

    /// No call may take longer than this; a call that does is a hang, and fails the test.
    static let deadline: Duration = .seconds(20)

    /// The call did not end within `deadline`.
    struct Hang: Error, CustomStringConvertible {
        var description: String { "the call did not end within \(NetworkFaultIntegrationTests.deadline)" }
    }

    /// One client, its file store and its own `URLSession` (so a connection a fault leaves
    /// dirty is never another test's), over the shared server under a path prefix of its own.
    final class Setup: Sendable {
        let server: FixtureServer
        let prefix = "/faults-\(UUID().uuidString.lowercased())"
        let folder = FileManager.default.temporaryDirectory.appending(path: "cachegen-faults-\(UUID().uuidString)")
        let session = URLSession(configuration: URLSessionTransport.defaultSession.configuration)
        let clock = TestClock()
        let events = EventLog()
        let store: FileCacheStore
        let client: CachedClient

        /// `timeout`: how long the transport waits for data before it fails.
        init(timeout: TimeInterval = 10, retry: RetryPolicy = .none) async throws {
            server = try await FixtureServer.shared
            store = try FileCacheStore(directory: folder, now: clock.function)
            client = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
                transport: URLSessionTransport(session: session, timeout: timeout), partition: "user-1", retry: retry,
                now: clock.function, events: events.record)
        }

        deinit {
            session.finishTasksAndInvalidate()
            try? FileManager.default.removeItem(at: folder)
        }

        /// The path of account `id` on the server.
        func path(_ id: String = "1") -> String { prefix + "/v1/accounts/" + id }

        /// Account `id` with `policy`, ended within the deadline (else `Hang`, recorded as an issue).
        func account(_ policy: CachePolicy, id: String = "1") async -> Result<CachedValue<Account>, any Error> {
            let client = client
            let started = ContinuousClock.now
            let answer = await finishing(within: NetworkFaultIntegrationTests.deadline) { () async throws -> CachedValue<Account> in
                try await client.value(for: Fixtures.request(id: id), endpoint: Fixtures.endpoint(), policy: policy)
            }
            guard let answer else {
                Issue.record("\(policy) for account \(id) did not end within \(NetworkFaultIntegrationTests.deadline): a hang (\(ContinuousClock.now - started), cancelled: \(Task.isCancelled))")
                return .failure(Hang())
            }
            await client.waitForBackgroundRefreshes()  // every write has landed (or never will)
            return answer
        }

        /// Stores the good answer for account 1 at `Fixtures.start`, then moves past its ttl, so
        /// that every policy asks the server again.
        func storeGoodAnswer() async throws {
            try await server.setRoute(path(), headers: NetworkFaultIntegrationTests.json, body: NetworkFaultIntegrationTests.good)
            #expect(try await account(.networkFirst).get() == .fresh(value: Fixtures.alice))
            clock.advance(by: Fixtures.ttl + 1)
        }

        /// What the store holds for account `id`, read by a new client (no memory layer).
        func stored(id: String = "1") async throws -> CachedValue<Account>? {
            let reader = CachedClient(
                baseURL: URL(string: server.baseURL.absoluteString + prefix + "/v1")!, store: store,
                transport: URLSessionTransport(session: session), partition: "user-1", retry: .none, now: clock.function)
            do {
                return try await reader.value(for: Fixtures.request(id: id), endpoint: Fixtures.endpoint(), policy: .cacheOnly)
            } catch CachedClientError.notCached {
                return nil
            }
        }
    }

    // MARK: - Transport failures: cut short, reset, stall

    /// A fault where no whole response arrives, with the `URLError` it is on Linux.
    struct TransportFault: Sendable, CustomTestStringConvertible {
        var name: String
        var fault: FixtureServer.NetworkFault
        /// The code Linux's URLSession (libcurl) fails with, and the event's text for it.
        var code: URLError.Code
        var eventMessage: String
        var testDescription: String { name }
    }

    static let transportFaults: [TransportFault] = [
        // libcurl's "transfer closed with N bytes remaining to read" (CURLE_PARTIAL_FILE) has no
        // URLError code of its own on Linux (`.unknown`); the transport reports it as Apple's
        // URLSession does, `.networkConnectionLost` (`URLError.reportingCutShort`).
        TransportFault(
            name: "cut short", fault: .cutShort(sending: 10), code: .networkConnectionLost,
            eventMessage: "URLError -1005 (connection lost)"),
        TransportFault(
            name: "cut short, chunked", fault: .cutShortChunked(sending: 10), code: .networkConnectionLost,
            eventMessage: "URLError -1005 (connection lost)"),
        TransportFault(
            name: "reset after the head", fault: .reset(sending: 0), code: .networkConnectionLost,
            eventMessage: "URLError -1005 (connection lost)"),
        TransportFault(
            name: "reset mid-body", fault: .reset(sending: 10), code: .networkConnectionLost,
            eventMessage: "URLError -1005 (connection lost)"),
        TransportFault(
            name: "stall mid-body", fault: .stall(sending: 5), code: .timedOut, eventMessage: "URLError -1001 (timed out)"),
    ]

    @Test(arguments: transportFaults)
    func aTransportFaultStoresNothingAndNetworkFirstAnswersFromTheStore(_ fault: TransportFault) async throws {
        // A stall lasts as long as the transport's timeout: a few seconds, so that a busy
        // machine (every URLSession of the process shares one queue on Linux) never delays
        // the bytes that did arrive past it. The other faults end the transfer themselves, and
        // the default timeout keeps a busy queue from turning their end into a timeout.
        let setup = try await Setup(timeout: fault.code == .timedOut ? 4 : 10)
        // Account 2 was never stored: the failure is the caller's, with the transport's error.
        try await setup.server.setFaultRoute(setup.path("2"), headers: Self.json, body: Self.good, fault: fault.fault)
        let missing = await setup.account(.networkFirst, id: "2")
        #expect(throws: URLError.self) { try missing.get() }
        #if os(Linux)
        #expect((missing.failure as? URLError)?.code == fault.code, "\(String(describing: missing.failure))")
        #endif
        #expect(try await setup.stored(id: "2") == nil)

        // Account 1 was stored: networkFirst answers with it, and the store keeps it as it was.
        try await setup.storeGoodAnswer()
        try await setup.server.setFaultRoute(setup.path(), headers: Self.json, body: Self.aliceLaterBody, fault: fault.fault)
        let stored = CachedValue<Account>.cached(value: Fixtures.alice, date: Fixtures.start)
        #expect(try await setup.account(.networkFirst).get() == stored)
        let fallback = setup.events.all.last { $0.kind == .fallback }
        #if os(Linux)
        #expect(fallback?.message == fault.eventMessage)
        #else
        #expect(fallback?.message?.hasPrefix("URLError -") == true)
        #endif
        // networkOnly never falls back; neither call changed what is stored.
        let networkOnly = await setup.account(.networkOnly)
        #expect(throws: URLError.self) { try networkOnly.get() }
        #expect(try await setup.stored() == stored)
        #expect(try await setup.store.entryCount() == 1)
    }

    /// libcurl's "transfer closed with N bytes remaining to read" reaches URLSession on Linux as
    /// `URLError(.unknown)`, which `RetryPolicy.isTransient` would not retry; the transport
    /// reports it as the lost connection it is, as Apple's URLSession does.
    @Test func aBodyCutShortIsRetriedLikeALostConnection() async throws {
        let setup = try await Setup(retry: RetryPolicy(maxRetries: 1, sleep: { _ in }))
        try await setup.server.setRoute(setup.path(), headers: Self.json, body: Self.good)
        try await setup.server.setFaultRoute(setup.path(), headers: Self.json, body: Self.good, fault: .cutShort(sending: 10), times: 1)
        let answer = await setup.account(.networkFirst)
        #expect((try? answer.get()) == .fresh(value: Fixtures.alice), "\(answer)")
        #expect(try await setup.store.entryCount() == ((try? answer.get()) == nil ? 0 : 1))
    }

    @Test func aStalledConnectionIsClosedByTheClientAtTheTimeout() async throws {
        let setup = try await Setup(timeout: 4)
        try await setup.server.setFaultRoute(setup.path(), headers: Self.json, body: Self.good, fault: .stall(sending: 0))
        let answer = await setup.account(.networkFirst)
        #expect((answer.failure as? URLError)?.code == .timedOut, "\(String(describing: answer.failure))")
        // The server waits (up to 10 s) for the client to close the stalled connection.
        #expect(try await setup.server.closedConnections(path: setup.path(), atLeast: 1) == 1)
        #expect(try await setup.store.entryCount() == 0)
    }

    // MARK: - Slow but whole: a trickle

    @Test func aBodyThatTricklesInSlowerThanTheTimeoutInAllButNeverStopsArrivesWholeAndIsStored() async throws {
        // 23 bytes 250 ms apart: 5.75 s in all, longer than the 4 s timeout, which bounds each wait
        // for data (as `timeoutIntervalForRequest` does), not the whole response. Each wait has
        // 3.75 s to spare, for a busy machine's delays.
        let setup = try await Setup(timeout: 4)
        try await setup.server.setFaultRoute(
            setup.path(), headers: Self.json, body: Self.good, fault: .trickle(intervalMilliseconds: 250))
        #expect(try await setup.account(.networkFirst).get() == .fresh(value: Fixtures.alice))
        #expect(try await setup.stored() == .cached(value: Fixtures.alice, date: Fixtures.start))
    }

    // MARK: - Framing: bytes after a valid body, a Content-Length that lies

    @Test func bytesAfterAValidBodyAreNotStored() async throws {
        let setup = try await Setup()
        try await setup.server.setFaultRoute(
            setup.path(), headers: Self.json, body: Self.good, fault: .extraBytes(Self.smuggledResponse, afterMilliseconds: 0))

        #expect(try await setup.account(.networkFirst).get() == .fresh(value: Fixtures.alice))
        #expect(try await setup.stored() == .cached(value: Fixtures.alice, date: Fixtures.start))
        try await Self.expectTheNextAnswerIsItsOwn(setup)
    }

    @Test func aContentLengthShorterThanTheBodyIsADecodingFailureThatSaysWhatArrived() async throws {
        let setup = try await Setup()
        try await setup.storeGoodAnswer()
        try await setup.server.setFaultRoute(setup.path(), headers: Self.json, body: Self.aliceLaterBody, fault: .lyingLength(10))

        // A body that did not decode is no transport failure: no fallback, nothing stored.
        let answer = await setup.account(.networkFirst)
        let expected = CachedClientError.decodingFailed(
            endpoint: "AccountRepository.getAccount",
            reason: #"the body is not valid JSON (Content-Type: application/json): 10 bytes: "{\"balance\"""#)
        #expect(answer.failure as? CachedClientError == expected)
        #expect(try await setup.stored() == .cached(value: Fixtures.alice, date: Fixtures.start))
        #expect(try await setup.store.entryCount() == 1)
        try await Self.expectTheNextAnswerIsItsOwn(setup)
    }

    /// After a faulty answer whose connection holds more bytes than its body: a whole response
    /// that a client reading on would take as the next answer.
    static let smuggledResponse =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"balance\":666,\"id\":\"evil\"}"

    /// The next request on the same client (and so maybe the same connection) gets its own
    /// answer, never the bytes a faulty answer left behind, and only that is stored.
    ///
    /// Known issue on Linux: libcurl 7.88 (Debian 12's, which FoundationNetworking links)
    /// sometimes keeps using a connection after finding bytes beyond a response's
    /// `Content-Length` ("Excess found in a read"), so the next request is answered with those
    /// bytes: a smuggled response is then taken (and stored) as the next answer, other bytes fail
    /// it with `URLError` -1002 ("Received HTTP/0.9 when not allowed"). The curl command line
    /// tool does the same. Nothing above the transport can tell; see the note of issue 36.
    static func expectTheNextAnswerIsItsOwn(_ setup: Setup) async throws {
        try await setup.server.setRoute(setup.path("2"), headers: json, body: aliceLaterBody)
        let next = await setup.account(.networkFirst, id: "2")
        // Whatever the next call was answered, the store holds that answer or nothing.
        let stored = try await setup.stored(id: "2")
        if let value = try? next.get() {
            #expect(stored == .cached(value: value.value, date: setup.clock.now))
        } else {
            #expect(stored == nil)
        }
        let check = { @Sendable in #expect((try? next.get()) == .fresh(value: Fixtures.aliceLater), "\(next)") }
        #if os(Linux)
        withKnownIssue("libcurl 7.88 reuses a connection with excess bytes", isIntermittent: true) { check() }
        #else
        check()
        #endif
    }

    // MARK: - A 200 that is not the API's JSON

    @Test func anHTMLPageWithStatus200SaysItIsNotJSONAndWhatItLooksLike() async throws {
        let setup = try await Setup()
        try await setup.storeGoodAnswer()
        try await setup.server.setRoute(setup.path(), headers: ["Content-Type": "text/html; charset=utf-8"], body: Self.html)

        let answer = await setup.account(.networkFirst)
        let error = try #require(answer.failure as? CachedClientError)
        #expect(
            error.localizedDescription
                == #"AccountRepository.getAccount: the response does not match the spec's type: the body is not valid JSON (Content-Type: text/html; charset=utf-8): 109 bytes, beginning "<!DOCTYPE html>\n<html><head><title>Sign in to the Wi-Fi</title><""#
                + " Check the client's baseURL, and whether a proxy, a captive portal or an error page answered in the API's place (or the server cut its body short).")
        #expect(try await setup.stored() == .cached(value: Fixtures.alice, date: Fixtures.start))
        // The event says what kind of failure, never the body.
        #expect(setup.events.all.last { $0.kind == .error }?.message == nil)
        #expect(setup.events.all.allSatisfy { !($0.message ?? "").contains("DOCTYPE") })
    }

    @Test func invalidJSONWithStatus200IsNotStored() async throws {
        let setup = try await Setup()
        try await setup.server.setRoute(setup.path(), headers: Self.json, body: "{\"balance\":10,\"id\":")
        let answer = await setup.account(.networkFirst)
        #expect(
            answer.failure as? CachedClientError
                == .decodingFailed(
                    endpoint: "AccountRepository.getAccount",
                    reason: #"the body is not valid JSON (Content-Type: application/json): 19 bytes: "{\"balance\":10,\"id\":""#))
        #expect(try await setup.store.entryCount() == 0)
    }

    @Test func anEmptyBodyWithStatus200SaysSo() async throws {
        let setup = try await Setup()
        try await setup.server.setRoute(setup.path(), headers: Self.json, body: "")
        let answer = await setup.account(.networkFirst)
        #expect(
            answer.failure as? CachedClientError
                == .decodingFailed(endpoint: "AccountRepository.getAccount", reason: "the body is empty (Content-Type: application/json)"))
        #expect(try await setup.store.entryCount() == 0)
    }

    // MARK: - Streams

    @Test func anEventStreamCutMidBodyEndsWithAnErrorAfterItsWholeEvents() async throws {
        let setup = try await Setup(timeout: 5)
        let body = "data: 1\n\ndata: 2\n\ndata: 3\n\n"
        try await setup.server.setFaultRoute(
            setup.prefix + "/v1/feed", headers: ["Content-Type": "text/event-stream"], body: body, fault: .cutShort(sending: 13))
        let (values, failure) = await Self.collect(setup, format: .events)
        #expect(values == [1])
        #expect(failure is URLError, "\(String(describing: failure))")
    }

    @Test func aJSONLinesStreamThatStallsEndsWithATimeoutAfterItsWholeRecords() async throws {
        let setup = try await Setup(timeout: 4)
        let body = "1\n2\n3\n"
        try await setup.server.setFaultRoute(
            setup.prefix + "/v1/feed", headers: ["Content-Type": "application/jsonl"], body: body, fault: .stall(sending: 4))
        let (values, failure) = await Self.collect(setup, format: .jsonLines)
        #expect(values == [1, 2])
        #expect((failure as? URLError)?.code == .timedOut, "\(String(describing: failure))")
    }

    // MARK: - Messages

    @Test func aBodyThatIsNotJSONIsQuotedEscapedAndAtMost64Bytes() {
        let long = Data(("\u{1}\"é" + String(repeating: "x", count: 100)).utf8)
        #expect(
            CachedClientError.bodyNotJSONReason(long, contentType: nil)
                == #"the body is not valid JSON (no Content-Type): 104 bytes, beginning "\u{01}\"é"#
                + String(repeating: "x", count: 60) + "\"")
        #expect(
            CachedClientError.bodyNotJSONReason(Data("<".utf8), contentType: "text/plain")
                == #"the body is not valid JSON (Content-Type: text/plain): 1 byte: "<""#)
        #expect(CachedClientError.bodyNotJSONReason(Data(), contentType: nil) == "the body is empty (no Content-Type)")
        // A body that is JSON but not the spec's type keeps the decoder's reason and advice.
        let mismatch = CachedClientError.decodingFailed(endpoint: "A.b", reason: "type mismatch (expected String) at .id")
        #expect(!mismatch.bodyIsNotJSON)
        #expect(mismatch.recoverySuggestion?.hasPrefix("Make the spec's response type match") == true)
    }

    @Test func transportFailuresAreNamedInEvents() {
        #expect(URLError.Code.timedOut.summary == "URLError -1001 (timed out)")
        #expect(URLError.Code.networkConnectionLost.summary == "URLError -1005 (connection lost)")
        #expect(URLError.Code.cannotConnectToHost.summary == "URLError -1004 (cannot connect to host)")
        #expect(URLError.Code.cannotFindHost.summary == "URLError -1003 (cannot find host)")
        #expect(URLError.Code.dnsLookupFailed.summary == "URLError -1006 (DNS lookup failed)")
        #expect(URLError.Code.notConnectedToInternet.summary == "URLError -1009 (not connected to the internet)")
        #expect(URLError.Code.badServerResponse.summary == "URLError -1011 (bad server response)")
        #expect(URLError.Code.cannotParseResponse.summary == "URLError -1017 (cannot parse response)")
        #expect(URLError.Code.secureConnectionFailed.summary == "URLError -1200 (secure connection failed)")
        #expect(URLError.Code.unknown.summary == "URLError -1")
    }

    @Test func aRetryEventNamesTheTransportFailure() async throws {
        let clock = TestClock()
        let sleeper = RecordingSleeper(clock: clock)
        let harness = Harness(
            transport: StubTransport(scripted([.failure(URLError(.timedOut)), .success(HTTPResponse(statusCode: 200, body: Fixtures.body(Fixtures.alice)))])),
            retry: sleeper.policy(), clock: clock)
        #expect(try await harness.client.value(for: Fixtures.request(), endpoint: Fixtures.endpoint()) == .fresh(value: Fixtures.alice))
        #expect(harness.events.all.filter { $0.kind == .retry }.map(\.message) == ["URLError -1001 (timed out), retry 1 of 2 in 0.5s"])
    }

    // MARK: - Helpers

    static let aliceLaterBody = String(decoding: Fixtures.body(Fixtures.aliceLater), as: UTF8.self)

    /// The values of the stream at `<prefix>/v1/feed` and the error that ended it, within the deadline.
    static func collect(_ setup: Setup, format: ResponseFormat) async -> (values: [Int], failure: (any Error)?) {
        let endpoint = Endpoint(name: "Feed.events", cache: nil, format: format)
        let client = setup.client
        let values = Locked<[Int]>([])
        let ended = await finishing(within: deadline) { () async throws -> Void in
            for try await event in client.eventStream(for: EndpointRequest(method: "GET", path: "/feed"), endpoint: endpoint, as: Int.self) {
                values.withLock { $0.append(event.value) }
            }
        }
        guard let ended else {
            Issue.record("the stream did not end within \(deadline): a hang")
            return (values.withLock { $0 }, Hang())
        }
        return (values.withLock { $0 }, ended.failure)
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
