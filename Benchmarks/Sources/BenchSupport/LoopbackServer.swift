import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for the network benchmarks: every GET is answered
/// with the same 200 JSON body (with `Content-Length`, keep-alive), after an optional delay.
/// One thread accepts, one thread serves each connection. It counts the requests it
/// answered, so a benchmark can see how many calls reached it.
///
/// It is deliberately much faster than `Tests/Fixtures/fixture_server.py`, so that the
/// client's own cost, not the server's, is what a fresh-path benchmark measures.
public final class LoopbackServer: @unchecked Sendable {
    /// The port it listens on, chosen by the system.
    public let port: UInt16
    /// `http://127.0.0.1:<port>/api`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/api")! }

    private let listener: Int32
    private let response: [UInt8]
    private let delayMicroseconds: UInt32
    private let lock = NSLock()
    private var served = 0

    /// Starts listening; `delay` is waited before each answer (to model a server's latency).
    public init(body: Data, delay: Duration = .zero) throws {
        let header = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: keep-alive\r\n\r\n"
        response = Array(header.utf8) + Array(body)
        let (seconds, attoseconds) = delay.components
        delayMicroseconds = UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)

        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw ServerError(step: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 256) == 0 else {
            let code = errno
            close(fd)
            throw ServerError(step: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// The number of requests answered so far.
    public var requestCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return served
    }

    /// Sets the request count back to zero.
    public func resetCount() {
        lock.lock()
        served = 0
        lock.unlock()
    }

    /// Stops accepting connections; open keep-alive connections end when their client closes them.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let thread = Thread { [self] in serve(connection) }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// Answers each complete request head (`\r\n\r\n`) on the connection until the client closes it.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            pending.append(contentsOf: buffer[0..<count])
            while let end = Self.headEnd(pending) {
                pending.removeFirst(end)
                if delayMicroseconds > 0 { usleep(delayMicroseconds) }
                lock.lock()
                served += 1
                lock.unlock()
                guard writeAll(connection) else { return }
            }
        }
    }

    private func writeAll(_ connection: Int32) -> Bool {
        response.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(connection, bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }

    /// The index just past the first `\r\n\r\n`, if the buffer holds a whole request head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    struct ServerError: Error, CustomStringConvertible {
        var step: String
        var code: Int32
        var description: String { "loopback server: \(step) failed: \(String(cString: strerror(code)))" }
    }
}
