import Foundation

/// `GET https://api.example.com/v1/accounts?page=1 (34-byte body)`: what a test prints of
/// `StubTransport.requests`. Headers are left out, because they carry credentials.
extension HTTPRequest: CustomStringConvertible {
    /// The method and URL, and the body's size when there is one; never a header.
    public var description: String {
        let size = body.map { " (\($0.count)-byte body)" } ?? ""
        return "\(method) \(url.absoluteString)\(size)"
    }
}
