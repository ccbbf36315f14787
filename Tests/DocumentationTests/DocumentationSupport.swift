import CachedClientRuntime
import CachedClientTesting
import Foundation

// What the articles' snippets refer to without showing: an app's screen and session.
// The snippets themselves are in one file per article (`GettingStarted.swift` for
// `GettingStarted.md`); `Scripts/check/build-docs.sh` checks that every `swift` block of an article
// appears, line for line, in the file the article names.

/// Stands in for an app's signed-in session.
struct Session: Sendable {
    var userID: String
    func token() async throws -> String { "token-of-\(userID)" }
}

/// Stands in for what a screen does with values.
@MainActor final class Screen {
    var shown: [String] = []
    var banner: String?
    func show(_ accounts: [Account]) { shown = accounts.map(\.id) }
    func showBanner(_ text: String) { banner = text }
}

/// An account as the stub server sends it.
let sampleAccount = Account(
    id: "a1", balance: 12.5, currency: "EUR", openedAt: Date(timeIntervalSince1970: 0), kind: .checking, tags: [], limits: [:])

/// Answers like the bank's server: the account list, one account, or a transfer.
let bankServer: StubTransport.Responder = { request in
    switch (request.method, request.url.path) {
    case ("GET", "/v1/accounts"): try .json([sampleAccount])
    case ("GET", "/v1/accounts/a1"): try .json(sampleAccount)
    case ("PATCH", "/v1/accounts/a1"): try .json(sampleAccount)
    case ("POST", "/v1/transfers"): try .json(Transfer(id: "t1", status: .pending, createdAt: Date(timeIntervalSince1970: 0)))
    default: HTTPResponse(statusCode: 404)
    }
}

/// A client whose server is a `StubTransport` answering as `bankServer`.
func stubbedClient(partition: String? = "user-1") throws -> (CachedClient, StubTransport) {
    let transport = StubTransport(bankServer)
    guard let baseURL = URL(string: "https://api.example-bank.com/v1") else { throw URLError(.badURL) }
    return (CachedClient(baseURL: baseURL, transport: transport, partition: partition), transport)
}
