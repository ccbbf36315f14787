import Foundation

extension FixtureServer {
    /// Serves `value` as JSON for `method path`, applying each value of the `header` field
    /// once: a repeat is answered the same but logged with `applied == false` (see
    /// `RecordedRequest.applied`). `delayMilliseconds` waits after the key counts as applied,
    /// so a client killed while waiting has been applied; `times` puts the route in front of
    /// the others for that many requests, as for `setRoute`.
    public func setIdempotentRoute(
        _ path: String, method: String = "POST", status: Int = 201, json value: some Encodable,
        header: String = "Idempotency-Key", delayMilliseconds: Int = 0, times: Int? = nil
    ) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let route = Route(
            method: method, path: path, status: status, headers: ["Content-Type": "application/json"],
            body: String(decoding: try encoder.encode(value), as: UTF8.self), delay_ms: delayMilliseconds, times: times,
            bearer: nil, idempotency: header)
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(route))
    }

    /// Keeps a collection at `path`: a GET answers its items as a JSON array, a POST adds its
    /// JSON object body with an `id` of the server's own (`s1`, `s2`, …) and answers the item
    /// with `status`, once per value of the `header` field (a repeat gets the first answer).
    public func setCollectionRoute(_ path: String, status: Int = 201, header: String = "Idempotency-Key") async throws {
        let name = "collection" + path
        let routes = [
            Route(
                method: "GET", path: path, status: 200, headers: [:], body: "", delay_ms: 0, times: nil, bearer: nil,
                collection: name),
            Route(
                method: "POST", path: path, status: status, headers: [:], body: "", delay_ms: 0, times: nil, bearer: nil,
                idempotency: header, collection: name),
        ]
        _ = try await control("POST", "routes", body: try JSONEncoder().encode(routes))
    }
}
