import CachedClientTestSupport
import Foundation
import Testing

@_spi(Generated) import CachedClientCalls
import CachedClientFileStore
import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The code of the DocC article `PagingRetriesAuth`, compiled here and run by the test below.
// Keep the two in step.

/// A session that renews tokens; the app's own code.
protocol TokenSession: Sendable {
    func renewToken(replacing expired: String?) async throws -> String
}

/// Retries, middleware and the authenticator, as an app sets them up.
func makeClient(baseURL: URL, session: any TokenSession, savedToken: String?, transport: any HTTPTransport) -> CachedClient {
    let auth = Authenticator(bearerToken: savedToken) { expired in
        try await session.renewToken(replacing: expired)
    }
    return CachedClient(
        baseURL: baseURL, transport: transport,
        middleware: [RequestLogger(), auth],
        retry: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(300), maxDelay: .seconds(5), maxRetryAfter: .seconds(30)))
}

/// Middleware sees every request and response, in list order (the first is outermost).
struct RequestLogger: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, operation: String,
        next: @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let response = try await next(request)
        print("\(operation) \(request.method) → \(response.statusCode)")
        return response
    }
}

/// Turning a failed refresh into "sign in again".
func loadOrAskToSignIn(_ load: () async throws -> Void, signIn: () -> Void) async throws {
    do {
        try await load()
    } catch is AuthenticationError {
        signIn()
    }
}

/// Every page, each fresh or from the cache with its date.
func printAll<Page>(_ pages: CachedPages<Page>, count: (Page) -> Int) async throws -> [String] {
    var lines: [String] = []
    for try await page in pages {
        lines.append(page.date.map { "\(count(page.value)) items, stored \($0)" } ?? "\(count(page.value)) items, fresh")
    }
    return lines
}

struct Renewer: TokenSession {
    func renewToken(replacing expired: String?) async throws -> String { "t2" }
}

@Suite("DocC code: paging, retries and auth")
struct PagingRetriesAuthDocCodeTests {
    @Test func theDocumentedSetupSignsRetriesAndPages() async throws {
        let transport = StubTransport { request in
            guard request.headers["Authorization"] == "Bearer t2" else { return HTTPResponse(statusCode: 401) }
            return HTTPResponse(statusCode: 200, body: Data("[1, 2]".utf8))
        }
        let client = makeClient(baseURL: Fixtures.baseURL, session: Renewer(), savedToken: "t1", transport: transport)
        let endpoint = Fixtures.endpoint("NumberRepository.list")
        let pages = CachedPages<[Int]>(
            first: { try await client.value(for: EndpointRequest(method: "GET", path: "/n"), endpoint: endpoint) },
            next: { _ in nil })

        #expect(try await printAll(pages, count: \.count) == ["2 items, fresh"])
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer t1", "Bearer t2"])

        var asked = false
        try await loadOrAskToSignIn({ throw AuthenticationError.refreshFailed(reason: "Revoked") }, signIn: { asked = true })
        #expect(asked)
    }
}
