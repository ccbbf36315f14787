import Foundation

/// `200, 1432 bytes`: enough to tell responses apart in a failed test or a log.
extension HTTPResponse: CustomStringConvertible {
    /// The status and the body's size; never a header or the body itself.
    public var description: String {
        "\(statusCode), \(body.count) bytes"
    }
}
