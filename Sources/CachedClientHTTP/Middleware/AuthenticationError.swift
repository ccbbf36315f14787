/// The credential could not be renewed: the app should ask the user to sign in again.
///
/// Thrown by `Authenticator` when its `refresh` fails for a reason other than the network
/// (an offline refresh throws the transport's error, so `networkFirst` can still answer
/// from the cache). It never carries a credential, so it is safe to log.
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `refresh` threw; `reason` is the type of what it threw, never its text.
    case refreshFailed(reason: String)

    /// A sentence a developer can act on.
    public var description: String {
        switch self {
        case .refreshFailed(let reason):
            "the credential could not be refreshed (\(reason)); sign in again."
        }
    }
}
