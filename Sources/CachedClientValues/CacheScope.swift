
/// Whose entries these are: the signed-in user's, or everybody's.
public enum CacheScope: String, Sendable, Hashable {
    /// Entries belong to the client's current partition (its signed-in user).
    case user
    /// Entries are the same for every user, such as a public catalogue.
    case shared
}
