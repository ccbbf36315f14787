extension SpecParser {
    /// Keys of each object, in the order the schema lists them.
    package enum Keys {
        package static let root = ["$schema", "version", "baseURL", "defaults", "generate", "include", "exclude", "models", "repositories"]
        package static let constructs = ["queries", "streams", "pages", "overloads"]
        package static let defaults = ["cache", "jsonKeys", "dates", "retry", "idempotencyHeader"]
        package static let defaultCache = ["ttl", "policy", "maxStale", "scope"]
        package static let objectModel = ["description", "identity", "properties"]
        package static let enumModel = ["description", "enum"]
        package static let property = ["type", "description", "json"]
        package static let repository = ["description", "endpoints"]
        package static let endpoint = [
            "method", "path", "pathParameters", "query", "headers", "body", "response", "description", "cache",
            "invalidates", "retry", "paging", "offline", "server",
        ]
        package static let endpointCache = ["ttl", "key", "policy", "maxStale", "scope"]
        package static let response = ["type", "format", "channel"]
        package static let body = ["type", "encoding", "contentType", "fields"]
        package static let bodyField = ["style", "explode", "contentType"]
        package static let parameter = ["type", "style"]
    }
}
