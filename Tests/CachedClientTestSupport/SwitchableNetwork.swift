import FixtureServerSupport
import Foundation

@_spi(Generated) import CachedClientRuntime
@_spi(RuntimeLayers) import CachedClientValues

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network that can be switched off: offline it fails as a device without a connection
/// does, online it sends through `URLSessionTransport` to the fixture server.
package final class SwitchableNetwork: HTTPTransport {
    package init() {}

    private let isOnline = Locked(false)
    private let transport = URLSessionTransport()

    package var online: Bool {
        get { isOnline.withLock { $0 } }
        set { isOnline.withLock { $0 = newValue } }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard online else { throw URLError(.notConnectedToInternet) }
        return try await transport.send(request)
    }
}
