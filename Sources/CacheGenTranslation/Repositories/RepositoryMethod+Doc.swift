import CacheGenSpec

/// The doc comment of an endpoint's method, in the protocol and in `Live…`: what the call
/// does, how it is cached, what a success invalidates.
extension RepositoryMethod {
    /// The doc comment of the method, from the endpoint's description and rules.
    package var doc: DocComment {
        var doc = endpoint.description.map(SwiftLiteral.commentLines) ?? []
        if !doc.isEmpty { doc.append("") }
        doc.append("`\(endpoint.method) \(endpoint.path)`. " + cacheSentence)
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
        if isQueued, let offline = endpoint.offline {
            doc.append(
                "Offline, on a timeout, a 5xx or a 429 it waits in the client's outbox and returns `.queued(id:)`; "
                    + "it is sent later, in order"
                    + (offline.scope.map { " with the other mutations of the queue \"\($0)\"" } ?? "")
                    + ", with the same `\(offline.idempotencyHeader)`.")
        }
        var parameters: [String] = []
        if let contentType = arguments.first(where: \.isContentType) {
            parameters.append(
                "- Parameter \(contentType.name): The media type of `body`, one the server takes; `nil` sends `\(endpoint.bodyEncoding.mediaType)`.")
        }
        if isCached {
            parameters.append("- Parameter policy: How to use the cache for this call; `nil` uses `.\(defaultPolicy)`.")
        }
        if !parameters.isEmpty { doc += [""] + parameters }
        return doc
    }

    /// "Cached for 10 minutes per page and per_page; shown offline for up to 7 days."
    private var cacheSentence: String {
        if isChannel {
            let resumed = endpoint.responseFormat == .events ? " (with `Last-Event-ID` once an event had an id)" : ""
            return "Streamed, never cached: sent when iterated; cancelling the iterating task closes the connection. "
                + "A long-lived channel: connected again\(resumed) when the server ends the response."
        }
        if isEventStream {
            return "Streamed, never cached: sent when iterated; cancelling the iterating task closes the connection."
        }
        guard isCached, let cache = endpoint.cache else {
            return responseType == nil ? "Nothing to cache: the response has no body." : "Never cached: every call goes to the network."
        }
        var keyNames = endpoint.parameters.filter { cache.contains($0) }.map(\.name.name)
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
