import CachedClientRuntime
import Dispatch
import FixtureServerSupport
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The child process of `CancellationWindowTests`' deadlock checks: one call that stops as its
// answer is handled (`GatedURLProtocol`, `beforeEnd`), cancelled from a thread at that moment.
// On Linux every URLSession of a process shares one queue, so a deadlock there stops every
// session of the process; a process of its own keeps the test run free of it.
//
//   CancellationProbe transport   through URLSessionTransport.send
//   CancellationProbe data-for    through URLSession.data(for:), the path the transport left
//
// Prints `ended: <how>` and exits 0 when the call ends; a thread of its own watches it, and
// prints `hung` and exits 3 when it has not ended 10 seconds after the stop's bounded hold.
let mode = CommandLine.arguments.dropFirst().first ?? ""
let session = GatedURLProtocol.session()
let (url, stop) = GatedURLProtocol.url(stoppingAt: .beforeEnd)
let call: Task<Data, any Error>
switch mode {
case "transport":
    call = Task { try await URLSessionTransport(session: session).send(HTTPRequest(method: "GET", url: url)).body }
case "data-for":
    call = Task { try await session.data(for: URLRequest(url: url)).0 }
default:
    FileHandle.standardError.write(Data("usage: CancellationProbe transport | data-for\n".utf8))
    exit(2)
}

Thread {
    guard stop.arrived.wait(timeout: .now() + 30) == .success else {
        FileHandle.standardError.write(Data("the request never reached the protocol\n".utf8))
        exit(4)
    }
    call.cancel()
    stop.release.signal()
}.start()

let ended = DispatchSemaphore(value: 0)
Thread {
    if ended.wait(timeout: .now() + GatedURLProtocol.holdLimit + 10) == .timedOut {
        say("hung")
        _exit(3)
    }
}.start()

switch await call.result {
case .success:
    say("ended: a value")
case .failure(let error):
    say("ended: \(error is CancellationError ? "CancellationError" : String(describing: error))")
}
ended.signal()
exit(0)

/// Writes a line to standard output at once (unbuffered, so `_exit` loses nothing).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
