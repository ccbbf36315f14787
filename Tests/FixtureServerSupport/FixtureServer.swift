import CachedClientHTTP
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A running `Tests/Fixtures/fixture_server.py` on 127.0.0.1, for tests that go through a
/// real socket; each test starts its own, so tests can run in parallel.
///
/// The script exits when our end of its stdin closes, so a crashed test run leaves no
/// server behind; `stop()` terminates it and waits, after which its port refuses
/// connections. `@unchecked Sendable`: `Process` is not `Sendable`, and only `stop()`
/// touches it after `init`.
///
/// Shared by the test targets that need a real server (the runtime's and
/// `GeneratedClientTests`); not a product.
public final class FixtureServer: @unchecked Sendable {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The port the OS gave the server.
    public let port: Int
    private let process: Process
    private let input: Pipe
    private let stopLock = NSLock()
    private var stopped = false
    private let session = URLSession(configuration: .ephemeral)

    /// `Tests/Fixtures/fixture_server.py`, found from this file's place in `Tests/FixtureServerSupport`.
    public static let scriptURL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/fixture_server.py")

    /// The real `python3` executable, found once: version-manager shims (pyenv, asdf)
    /// take longer to start than the server itself.
    private static let python: String = {
        let probe = Process()
        probe.executableURL = URL(filePath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import sys; print(sys.executable)"]
        let output = ChildProcess.pipe()
        probe.standardOutput = output
        guard (try? ChildProcess.start(probe)) != nil else { return "/usr/bin/python3" }
        let path = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        probe.waitUntilExit()
        return path.isEmpty ? "/usr/bin/python3" : path
    }()

    /// The script did not start as expected; `output` is what it wrote instead of its port.
    public struct StartFailure: Error, CustomStringConvertible {
        /// The first line the script wrote.
        public var output: String
        /// Says what the script wrote.
        public var description: String { "fixture_server.py did not print its port; it wrote: \(output)" }
    }

    /// Starts the server and waits for its `PORT <n>` line.
    ///
    /// The wait is a blocking read, so it runs on a thread of its own rather than on one
    /// of the few threads that run every test's tasks.
    public static func start(routesFile: URL? = nil) async throws -> FixtureServer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try FixtureServer(routesFile: routesFile) }) }.start()
        }
    }

    /// One server for the whole test run, for tests that never stop it: Python's start-up
    /// is most of an integration test's time. Tests keep apart by giving their routes a
    /// path prefix of their own; it exits with the test process (its stdin closes).
    public static var shared: FixtureServer {
        get async throws { try await sharedStart.value }
    }

    private static let sharedStart = Task { try await FixtureServer.start() }

    private init(routesFile: URL?) throws {
        let process = Process()
        process.executableURL = URL(filePath: Self.python)
        process.arguments = [Self.scriptURL.path] + (routesFile.map { ["--routes", $0.path] } ?? [])
        let input = ChildProcess.pipe()
        let output = ChildProcess.pipe()
        process.standardInput = input
        process.standardOutput = output
        try ChildProcess.start(process)

        let line = output.fileHandleForReading.readFirstLine()
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw StartFailure(output: line)
        }
        self.process = process
        self.input = input
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit { stop() }

    /// Stops the server and waits until it is gone, so the port refuses connections.
    ///
    /// Closing its stdin is what stops it for certain (the script exits on EOF); SIGTERM
    /// is the second way.
    public func stop() {
        let alreadyStopped = stopLock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    // MARK: Control endpoints

    /// A route as `fixture_server.py` reads it; `nil` fields are left out.
    struct Route: Encodable {
        var method: String
        var path: String
        var status: Int
        var headers: [String: String]
        var body: String
        var delay_ms: Int
        var times: Int?
        var bearer: String?
        var idempotency: String? = nil
        var collection: String? = nil
    }

    private struct PagedRoute<Item: Encodable>: Encodable {
        var path: String
        var paging: String
        var items: [Item]
        var per_page: Int
        var bearer: String?
    }

    /// Serves `items` in pages of `perPage` at `path`: `paging` is `"link"` (`?page=N`, a
    /// `Link: rel="next"` header while pages remain), `"cursor"` (`?after=C`, the items under
    /// `items` and the next cursor at `pageInfo.endCursor`) or `"page"` (`?page=N`, bare arrays).
    public func setPagedRoute(
        _ path: String, paging: String, items: [some Encodable], perPage: Int, bearer: String? = nil
    ) async throws {
        let route = PagedRoute(path: path, paging: paging, items: items, per_page: perPage, bearer: bearer)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// Serves `body` for `method path` from now on; a path without a query matches any query.
    public func setRoute(
        _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:],
        body: String = "", delayMilliseconds: Int = 0, times: Int? = nil, bearer: String? = nil
    ) async throws {
        let route = Route(
            method: method, path: path, status: status, headers: headers, body: body, delay_ms: delayMilliseconds,
            times: times, bearer: bearer)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// Serves `value` as JSON for `method path` from now on.
    public func setRoute(
        _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:],
        json value: some Encodable, delayMilliseconds: Int = 0, times: Int? = nil, bearer: String? = nil
    ) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = String(decoding: try encoder.encode(value), as: UTF8.self)
        try await setRoute(
            path, method: method, status: status, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine },
            body: body, delayMilliseconds: delayMilliseconds, times: times, bearer: bearer)
    }

    /// What a checking route expects of a request's body (`"expect"` in the server's routes).
    public struct BodyExpectation: Encodable, Sendable {
        /// One expected part of a multipart body: its header lines and exact bytes.
        public struct Part: Encodable, Sendable {
            var headers: [String]
            var body_base64: String

            /// A part with these header lines (without CRLF) and this content.
            public init(headers: [String], body: Data) {
                self.headers = headers
                body_base64 = body.base64EncodedString()
            }
        }

        var content_type: String?
        var body_base64: String?
        var multipart: [Part]?

        /// The exact `Content-Type` and body.
        public init(contentType: String, body: Data) {
            content_type = contentType
            body_base64 = body.base64EncodedString()
        }

        /// A multipart body (its boundary as its `Content-Type` says) of exactly these parts.
        public init(multipart parts: [Part]) {
            multipart = parts
        }
    }

    /// What a checking route saw: whether the body matched, why not, and the body itself.
    public struct SeenBody: Decodable, Sendable, Equatable {
        /// One part of a multipart body as received.
        public struct Part: Decodable, Sendable, Equatable {
            public var headers: [String]
            public var body_base64: String
        }

        public var matched: Bool
        public var reason: String?
        public var content_type: String
        public var body_base64: String
        public var parts: [Part]?
    }

    private struct CheckingRoute: Encodable {
        var method: String
        var path: String
        var status: Int
        var expect: BodyExpectation
    }

    /// Checks the body of `method path` from now on: a body as `expect` says is answered
    /// with `status`, any other with 422; both with a `SeenBody`.
    public func setCheckingRoute(_ path: String, method: String, status: Int = 200, expect: BodyExpectation) async throws {
        let route = CheckingRoute(method: method, path: path, status: status, expect: expect)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// A request the server received (control requests excluded).
    public struct RecordedRequest: Decodable, Sendable {
        /// The request's method, as sent.
        public var method: String
        /// The path with its query.
        public var path: String
        /// The request's header fields, as the server read them.
        public var headers: [String: String]
        /// The request's body as text.
        public var body: String
        /// The status answered, once answered.
        public var status: Int?
        /// Bytes of the response on the wire: status line, header fields and body.
        public var responseBytes: Int?
        /// For a route with an idempotency header: whether this request was applied (its key
        /// was new) or answered as a repeat; `nil` for other routes.
        public var applied: Bool?

        enum CodingKeys: String, CodingKey {
            case method, path, headers, body, status, applied
            case responseBytes = "response_bytes"
        }

        /// The value of header field `name`, compared without case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Every request served so far, oldest first.
    public func requests() async throws -> [RecordedRequest] {
        try JSONDecoder().decode([RecordedRequest].self, from: try await control("GET", "requests"))
    }

    /// Serves `chunks` for `method path` as a body written chunk by chunk (an event stream),
    /// then closes the connection; with `hold`, waits for the client to close it instead and
    /// counts that (see `closedConnections(path:atLeast:)`). With `cut`, the chunks go in
    /// chunked framing and the connection closes without the last chunk: a connection lost
    /// mid-stream, not a response that ended.
    public func setStreamRoute(
        _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:], chunks: [String],
        hold: Bool = false, times: Int? = nil, cut: Bool = false
    ) async throws {
        let route = StreamRoute(
            method: method, path: path, status: status, headers: headers, stream: chunks, hold: hold, times: times,
            stream_end: cut ? "cut" : nil)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// Serves `bytes` (any bytes, UTF-8 or not) for `method path` from now on.
    public func setRoute(
        _ path: String, method: String = "GET", status: Int = 200, headers: [String: String] = [:], bytes: Data,
        times: Int? = nil
    ) async throws {
        let route = BytesRoute(
            method: method, path: path, status: status, headers: headers, body_base64: bytes.base64EncodedString(), times: times)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// How many held streams of `path` the client has closed, once at least `count` have
    /// (the server waits for them, up to 10 seconds, so a test never sleeps).
    public func closedConnections(path: String, atLeast count: Int) async throws -> Int {
        var components = URLComponents(url: baseURL.appending(path: "__control/closed"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "path", value: path), URLQueryItem(name: "count", value: String(count))]
        guard let url = components?.url else { throw URLError(.badURL) }
        let data = try await URLSessionTransport(session: session).send(HTTPRequest(method: "GET", url: url)).body
        struct Closed: Decodable { var closed: Int }
        return try JSONDecoder().decode(Closed.self, from: data).closed
    }

    private struct StreamRoute: Encodable {
        var method: String
        var path: String
        var status: Int
        var headers: [String: String]
        var stream: [String]
        var hold: Bool
        var times: Int?
        var stream_end: String?
    }

    private struct BytesRoute: Encodable {
        var method: String
        var path: String
        var status: Int
        var headers: [String: String]
        var body_base64: String
        var times: Int?
    }

    /// Forgets routes and the request log.
    public func reset() async throws {
        _ = try await control("POST", "reset")
    }

    /// Calls a `/__control/…` endpoint and returns its body; throws unless it answers 200.
    public func control(_ method: String, _ name: String, body: Data? = nil) async throws -> Data {
        // Through URLSessionTransport, never `data(for:)`: a test cancelled (by its time limit)
        // in `data(for:)` can deadlock every URLSession of the process on Linux (issue 36).
        let request = HTTPRequest(method: method, url: baseURL.appending(path: "__control/\(name)"), body: body)
        let response = try await URLSessionTransport(session: session).send(request)
        guard response.statusCode == 200 else {
            throw URLError(.badServerResponse, userInfo: ["body": String(decoding: response.body, as: UTF8.self)])
        }
        return response.body
    }
}

extension FileHandle {
    /// Blocks until a child process has written its first line (its "ready" signal) or
    /// closed the pipe, and returns that line without the line break.
    public func readFirstLine() -> String {
        var buffer = Data()
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }
}
