/// What `PostgresCacheStore` throws of its own; no case holds a key, path or value.
public enum PostgresCacheStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database holds tables of a newer layout than this build knows; the store leaves them alone.
    case newerSchema(found: Int, known: Int)
    /// The namespace is not a lower-case SQL identifier of at most 40 characters.
    case invalidNamespace
    /// The URL is not `postgres://[user[:password]@]host[:port][/database]`.
    case invalidURL

    /// One line for logs and events.
    public var description: String {
        switch self {
        case .newerSchema(let found, let known):
            "the cache tables are at version \(found), newer than this build's \(known); they were left unchanged"
        case .invalidNamespace:
            "the namespace must be lower-case letters, digits and _, not starting with a digit, at most 40 characters"
        case .invalidURL:
            "the URL must be postgres://[user[:password]@]host[:port][/database]"
        }
    }
}
