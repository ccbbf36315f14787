import FixtureServerSupport
import Foundation

@_spi(Generated) @testable import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A private nginx on a free 127.0.0.1 port serving static files a test writes: a real
/// server's `ETag`, `Last-Modified`, `expires` and 304s rather than our fixture's.
///
/// Everything lives in a temporary folder: the config, the document root (`html/`), the
/// pid file, the error log and an access log of `$status $bytes_sent $request_length $uri`
/// per line. nginx runs in the foreground (`daemon off;`) under a few lines of Python that
/// stop it when our end of their stdin closes, so a crashed test run leaves no server
/// behind. (Not `sh`: a child inherits the blocked signals of the thread that spawns it, a
/// libdispatch worker here, and with SIGCHLD blocked `sh`'s `wait` never returns; Python
/// can unblock them, as `fixture_server.py` does.)
/// `@unchecked Sendable`: `Process` is not `Sendable`, and only `stop()` touches it after `init`.
package final class NginxServer: @unchecked Sendable {
    /// `http://127.0.0.1:<port>`.
    package let baseURL: URL
    /// Where the files served live; `html/a.json` is `GET /a.json`.
    package let root: URL
    package let directory: URL
    private let process: Process
    private let input: Pipe
    private let stopped = Locked(false)

    /// The nginx executable, looked up on `PATH` and where packages put it (`/usr/sbin` is
    /// often not on a non-root `PATH`); `nil` when nginx is not installed.
    package static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init)
            + ["/usr/sbin", "/usr/local/sbin", "/usr/local/bin", "/opt/homebrew/bin", "/opt/local/sbin"]
        return folders.map { $0 + "/nginx" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether the nginx tests can run; CI installs nginx (`.ci/run`), a developer machine may not have it.
    package static var isInstalled: Bool { executable != nil }

    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts nginx with `locations` (nginx `location` blocks) inside its one `server`.
    /// Retries with another port if the one picked was taken in between.
    package static func start(locations: String = "") async throws -> NginxServer {
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                return try await NginxServer(locations: locations)
            } catch let error as StartFailure {
                lastError = error
            }
        }
        throw lastError ?? StartFailure(description: "nginx did not start")
    }

    private init(locations: String) async throws {
        guard let executable = Self.executable else { throw StartFailure(description: "nginx is not installed") }
        directory = FileManager.default.temporaryDirectory.appending(path: "cachegen-nginx-\(UUID().uuidString)")
        root = directory.appending(path: "html")
        for folder in ["html", "logs", "temp"] {
            try FileManager.default.createDirectory(at: directory.appending(path: folder), withIntermediateDirectories: true)
        }
        let port = try Self.freePort()
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        // `user root;` only when we are root: the workers must read files in our 0700 temp folder.
        let user = geteuid() == 0 ? "user root;" : ""
        let config = """
            daemon off;
            \(user)
            worker_processes 1;
            pid nginx.pid;
            error_log logs/error.log warn;
            events { worker_connections 64; }
            http {
                log_format bytes '$status $bytes_sent $request_length $uri';
                access_log logs/access.log bytes;
                client_body_temp_path temp/body;
                proxy_temp_path temp/proxy;
                fastcgi_temp_path temp/fastcgi;
                uwsgi_temp_path temp/uwsgi;
                scgi_temp_path temp/scgi;
                types { application/json json; }
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port);
                    root html;
                    \(locations)
                }
            }
            """
        let configFile = directory.appending(path: "nginx.conf")
        try Data(config.utf8).write(to: configFile)
        try Data("ok".utf8).write(to: root.appending(path: "__ready"))

        // nginx as a child; at EOF on our stdin it gets SIGTERM (a fast shutdown), and the
        // wrapper exits with it.
        let script = """
            import signal, subprocess, sys, threading
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            prefix = sys.argv[2]
            nginx = subprocess.Popen([sys.argv[1], "-p", prefix + "/", "-c", prefix + "/nginx.conf",
                                      "-e", prefix + "/logs/error.log"], stdin=subprocess.DEVNULL)
            def stop_at_eof():
                sys.stdin.buffer.read()
                nginx.terminate()
            threading.Thread(target=stop_at_eof, daemon=True).start()
            sys.exit(nginx.wait())
            """
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, executable, directory.path]
        let input = ChildProcess.pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcess.start(process)
        self.process = process
        self.input = input

        // Ready when it serves a file; give up after about five seconds.
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral), timeout: 1)
        for _ in 0..<250 {
            if !process.isRunning { break }
            if let response = try? await transport.send(HTTPRequest(method: "GET", url: baseURL.appending(path: "__ready"))),
               response.statusCode == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        stop()
        let log = (try? String(contentsOf: directory.appending(path: "logs/error.log"), encoding: .utf8)) ?? ""
        throw StartFailure(description: "nginx did not start on port \(port): \(log)")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops nginx and waits until it is gone, so its port refuses connections.
    package func stop() {
        let alreadyStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Writes a file to serve, with a chosen modification date: nginx's ETag is the hex
    /// mtime and size, and its Last-Modified is the mtime, so both are under the test's control.
    package func write(_ path: String, _ data: Data, modified: Date) throws {
        let file = root.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
    }

    /// One line of the access log.
    package struct LogLine: Equatable {
        package var status: Int
        /// `$bytes_sent`: everything sent to the client, status line and header fields included.
        package var bytesSent: Int
        /// `$request_length`: the request line, header fields and body.
        package var requestLength: Int
        package var uri: String
    }

    /// The access log without the readiness probe, waiting (up to about two seconds) until it
    /// has `count` lines: nginx writes a line after the response has left, so it can trail
    /// the client by a moment.
    package func accessLog(count: Int) async throws -> [LogLine] {
        var lines: [LogLine] = []
        for _ in 0..<100 {
            let text = (try? String(contentsOf: directory.appending(path: "logs/access.log"), encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ").map(String.init)
                guard fields.count == 4, let status = Int(fields[0]), let sent = Int(fields[1]), let length = Int(fields[2]) else {
                    return nil
                }
                return fields[3] == "/__ready" ? nil : LogLine(status: status, bytesSent: sent, requestLength: length, uri: fields[3])
            }
            if lines.count >= count { return lines }
            try await Task.sleep(for: .milliseconds(20))
        }
        return lines
    }

    /// A port nothing listens on right now: bound to port 0, read back, released.
    private static func freePort() throws -> Int {
        #if canImport(Darwin)
        let socketType = SOCK_STREAM
        #else
        let socketType = Int32(SOCK_STREAM.rawValue)
        #endif
        let fd = socket(AF_INET, socketType, 0)
        guard fd >= 0 else { throw StartFailure(description: "socket() failed: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw StartFailure(description: "bind() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
