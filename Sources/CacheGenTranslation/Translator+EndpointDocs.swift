import CacheGenSpec

/// Doc comments of endpoint methods: what the call does, how it is cached, what a
/// success invalidates.
extension Translator {
    package func endpointDoc(_ method: Method) -> DocComment {
        let endpoint = method.endpoint
        var doc = endpoint.description.map(SwiftLiteral.commentLines) ?? []
        if !doc.isEmpty { doc.append("") }
        doc.append("`\(endpoint.method) \(endpoint.path)`. " + cacheSentence(method))
        if let server = endpoint.server {
            doc.append("Sent to \(server), this endpoint's own server, not the client's `baseURL`.")
        }
        if !endpoint.bodyFlags.isEmpty {
            doc.append("Sends " + Self.list(endpoint.bodyFlags.map { "`\($0): true`" }) + " in the body, whatever `body` says.")
        }
        if !endpoint.invalidates.isEmpty {
            let names = endpoint.invalidates.map { "`\(SwiftNaming.memberName($0.name))`" }
            doc.append("A success removes the stored entries of " + Self.list(names) + ".")
        }
        if method.isQueued, let offline = endpoint.offline {
            doc.append(
                "Offline, on a timeout, a 5xx or a 429 it waits in the client's outbox and returns `.queued(id:)`; "
                    + "it is sent later, in order"
                    + (offline.scope.map { " with the other mutations of the queue \"\($0)\"" } ?? "")
                    + ", with the same `\(offline.idempotencyHeader)`.")
        }
        var parameters: [String] = []
        if let contentType = method.arguments.first(where: \.isContentType) {
            parameters.append(
                "- Parameter \(contentType.name): The media type of `body`, one the server takes; `nil` sends `\(endpoint.bodyEncoding.mediaType)`.")
        }
        if method.isCached {
            parameters.append("- Parameter policy: How to use the cache for this call; `nil` uses `.\(method.defaultPolicy)`.")
        }
        if !parameters.isEmpty { doc += [""] + parameters }
        return doc
    }

    /// "Cached for 10 minutes per page and per_page; shown offline for up to 7 days."
    private func cacheSentence(_ method: Method) -> String {
        if method.isChannel {
            let resumed = method.endpoint.responseFormat == .events ? " (with `Last-Event-ID` once an event had an id)" : ""
            return "Streamed, never cached: sent when iterated; cancelling the iterating task closes the connection. "
                + "A long-lived channel: connected again\(resumed) when the server ends the response."
        }
        if method.isEventStream {
            return "Streamed, never cached: sent when iterated; cancelling the iterating task closes the connection."
        }
        guard method.isCached, let cache = method.endpoint.cache else {
            return method.responseType == nil ? "Nothing to cache: the response has no body." : "Never cached: every call goes to the network."
        }
        var keyNames = method.endpoint.parameters.filter { cache.contains($0) }.map(\.name.name)
        if cache.bodyInKey { keyNames.append("body") }
        var sentence = cache.settings.ttlFromServer
            ? "Cached for as long as the server says (else \(SpecDuration.words(cache.settings.ttl)))"
            : "Cached for \(SpecDuration.words(cache.settings.ttl))"
        if !keyNames.isEmpty { sentence += " per " + Self.list(keyNames) }
        sentence += "; shown offline for up to \(SpecDuration.words(cache.settings.maxStale))"
        sentence += cache.settings.scope == .shared ? "; shared by all users." : "."
        return sentence
    }

    private static func list(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
    }
}
