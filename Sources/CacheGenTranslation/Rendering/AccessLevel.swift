/// The access level of generated API.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Usable from other modules: a client library.
    case `public`
    /// Usable inside the module that generates it: an app target.
    case `internal`
}
