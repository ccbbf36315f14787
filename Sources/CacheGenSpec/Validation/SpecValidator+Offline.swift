import CacheGenReading

// `"offline": "queue"` is for mutations whose answer the call can do without: never a
// GET (reads are served from the cache offline), a cached endpoint or a stream.
extension SpecValidator {
    package mutating func checkOffline(_ endpoint: EndpointSpec) {
        guard let offline = endpoint.offline else { return }
        let name = quoted(endpoint.name.name)
        if endpoint.method == "GET" || endpoint.method == "HEAD" {
            report(
                "\"offline\": \"queue\" is for mutations; \(endpoint.method) endpoint \(name) is read from the cache offline",
                at: offline.location)
        } else if endpoint.responseFormat.isStream {
            report("endpoint \(name) streams its response, which cannot wait in a queue; remove \"offline\"", at: offline.location)
        } else if endpoint.cache != nil, endpoint.returnsValue {
            report(
                "endpoint \(name) is cached, and a queued call has no answer to cache; remove \"offline\" or set \"cache\": false",
                at: offline.location)
        }
    }
}
