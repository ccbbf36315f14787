import Foundation

/// `error.localizedDescription` says which handler a test or preview must set.
extension MockNotImplemented: LocalizedError {
    /// The same sentence as `description`: it already says what to do.
    public var errorDescription: String? { description }
}
