
/// Thrown by a generated `Mock…` repository for an endpoint the test or preview did not
/// give a handler, so a missing stub fails loudly instead of returning made-up data.
public struct MockNotImplemented: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Repository.method` of the call.
    public var endpoint: String

    /// Creates the error.
    public init(endpoint: String) {
        self.endpoint = endpoint
    }

    /// Says which handler to set.
    public var description: String {
        "\(endpoint) has no handler in this mock; set it when creating the mock."
    }
}
