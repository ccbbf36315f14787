import CachedClientHTTP
import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

// Link paging (RFC 8288): the next page is the URL named by a page's `Link` field. That field
// is kept in the store beside the page, as an entry of its own under a key derived from the
// page's (same endpoint, partition and path, so every removal that covers a page covers its
// links), so the next page is known offline too; no store keeps anything new.
/// Follows `Link` fields (RFC 8288) from page to page for `CachedClient.linkedPages(for:endpoint:policy:as:)`:
/// the field is read from the store beside its page (kept there by `CallWriter.keepLinks`).
package struct LinkFollower: Sendable {
    /// The client whose calls load the pages.
    package let client: CachedClient

    /// The key of the entry that keeps the `Link` field of the answer stored under `key`: a
    /// text no request makes, with the page key's endpoint, partition and path.
    package static func linksKey(of key: CacheKey) -> CacheKey {
        CacheKey(text: key.text + "\nlinks", endpoint: key.endpoint, partition: key.partition, path: key.path)
    }


    /// The pages of an endpoint that pages by `Link` header: `request` first, then the URL that
    /// each page's `Link` field names for the endpoint's `nextLinkRelation`, each page a cached
    /// call under a key of its own (a followed link's query items all part of it).
    ///
    /// A link is followed only under `baseURL` (same scheme, host, port and base path), since
    /// the request carries the app's credentials; any other ends the pages. A page read from the
    /// store without its links (stored before the endpoint paged, or its links evicted or of
    /// another answer) is asked for again, unless the policy is `cacheOnly`; offline, the pages
    /// then end there: links are never guessed.
    package func pages<T: Decodable & Sendable>(
        for request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy?, as type: T.Type
    ) -> CachedPages<T> {
        CachedPages(
            load: { progress in
                var pageRequest = request
                if let previous = progress.previous {
                    guard let next = previous.next as? EndpointRequest else { return nil }
                    pageRequest = next
                }
                return try await linkedPage(pageRequest, endpoint: endpoint, policy: policy, as: type)
            },
            hasNext: { $0.next is EndpointRequest })
    }

    /// One page and the request of the next, if it has one.
    private func linkedPage<T: Decodable & Sendable>(
        _ request: EndpointRequest, endpoint: Endpoint, policy: CachePolicy?, as type: T.Type
    ) async throws -> CachedPages<T>.Loaded {
        var page = try await client.value(for: request, endpoint: endpoint, policy: policy, as: type)
        var field = await storedLinks(of: request, endpoint: endpoint)
        if field == nil, page.isCached, let rule = endpoint.cache, (policy ?? rule.policy) != .cacheOnly {
            // Asked without validators (a 304 would not say where the pages go), and at once:
            // a stored page is at hand, so no retries; offline its links stay unknown.
            var call = try client.makeCall(request, endpoint: endpoint, rule: rule)
            call.cacheAtHand = true
            do {
                let fetched = try await client.fetcher.shared(call, validating: nil, as: type)
                QueryProbe.current?.recordFreshness(fetched.freshness, of: client, call.key)
                page = .fresh(value: fetched.value)
                field = await storedLinks(of: request, endpoint: endpoint)
            } catch where CallFetcher.allowsFallback(error) {}
        }
        let next = field.flatMap { nextRequest(after: request, links: $0, relation: endpoint.nextLinkRelation ?? "next", server: endpoint.server) }
        return CachedPages<T>.Loaded(page: page, next: next)
    }

    /// The `Link` field kept beside the page `request` answers, if any, and only when it came
    /// with the stored page (the same date).
    private func storedLinks(of request: EndpointRequest, endpoint: Endpoint) async -> String? {
        guard let rule = endpoint.cache, let call = try? client.makeCall(request, endpoint: endpoint, rule: rule) else { return nil }
        guard let links = await client.reader.entry(client.reader.linksCall(call), writingBackWith: client.writer),
            let page = await client.reader.entry(call, writingBackWith: client.writer), page.date == links.date
        else {
            return nil
        }
        return String(decoding: links.body, as: UTF8.self)
    }

    /// The request for the target of the `relation` link in `field`, when it is under `baseURL`
    /// (or under the endpoint's own `server`, when it has one).
    package func nextRequest(
        after request: EndpointRequest, links field: String, relation: String, server: String? = nil
    ) -> EndpointRequest? {
        guard !field.isEmpty, let current = try? client.sender.url(for: request, server: server),
            let target = LinkHeader.target(ofRelation: relation, in: field, base: current),
            let link = URLComponents(url: target, resolvingAgainstBaseURL: true),
            let base = URLComponents(url: server.flatMap(URL.init(string:)) ?? client.baseURL, resolvingAgainstBaseURL: true),
            link.scheme?.lowercased() == base.scheme?.lowercased(), link.host?.lowercased() == base.host?.lowercased(),
            link.port == base.port
        else { return nil }
        var basePath = base.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let path = link.percentEncodedPath
        guard path.hasPrefix(basePath + "/") else { return nil }
        let query = (link.percentEncodedQueryItems ?? []).map { item in
            RequestParameter(
                name: item.name.removingPercentEncoding ?? item.name,
                value: (item.value ?? "").removingPercentEncoding ?? (item.value ?? ""), isKey: true)
        }
        return request.following(path: String(path.dropFirst(basePath.count)), query: query)
    }
}
