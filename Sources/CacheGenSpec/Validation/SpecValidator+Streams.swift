import CacheGenReading

// `"channel": true` says a stream is a long-lived channel, connected again when the server
// ends it; only a stream can be one.
extension SpecValidator {
    package mutating func checkChannel(_ endpoint: EndpointSpec) {
        guard let channel = endpoint.channel, !endpoint.responseFormat.isStream else { return }
        report(
            "endpoint \(quoted(endpoint.name.name)) is marked \"channel\", but its response is not a stream "
                + "(Server-Sent Events, JSON Lines or JSON text sequences); remove \"channel\"",
            at: channel)
    }
}
