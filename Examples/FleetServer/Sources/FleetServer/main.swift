import CachedClientRuntime
import Foundation
import Hummingbird
import PostgresCacheStore

// One instance of the fleet: `GET /forecast/{city}` answers from the shared PostgreSQL cache
// or the upstream API (one upstream request for the whole fleet when instances ask at once);
// `DELETE /cache` removes every entry, in every instance's memory too.
//
//   CACHEGEN_POSTGRES_URL=postgres://… UPSTREAM_URL=http://127.0.0.1:8000/api PORT=8081 swift run FleetServer
//
// See README.md for two instances on one database.
let environment = ProcessInfo.processInfo.environment
guard let databaseURL = environment["CACHEGEN_POSTGRES_URL"],
    let upstream = environment["UPSTREAM_URL"].flatMap(URL.init(string:))
else {
    FileHandle.standardError.write(Data("FleetServer: set CACHEGEN_POSTGRES_URL and UPSTREAM_URL (see README.md)\n".utf8))
    exit(2)
}
let port = environment["PORT"].flatMap(Int.init) ?? 8080
let name = environment["INSTANCE"] ?? "instance-\(port)"

let store = try PostgresCacheStore(url: databaseURL, namespace: "fleet")
try await store.ready()
let client = CachedClient(
    baseURL: upstream, store: store,
    events: { event in print("[\(name)] \(event)") })
let weather = LiveWeatherRepository(client: client)

/// What an instance answers: the forecast, where it came from and which instance served it.
struct ForecastAnswer: ResponseEncodable {
    var forecast: Forecast
    var source: String
    var storedAt: Date?
    var instance: String
}

let router = Router()
router.get("forecast/:city") { _, context -> ForecastAnswer in
    let city = try context.parameters.require("city")
    let answer = try await weather.getForecast(city: city)
    return ForecastAnswer(
        forecast: answer.value, source: answer.isCached ? "cache" : "upstream", storedAt: answer.date, instance: name)
}
router.delete("cache") { _, _ -> HTTPResponse.Status in
    try await client.removeAll()
    return .noContent
}

let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: name))
print("[\(name)] listening on http://127.0.0.1:\(port), upstream \(upstream)")
try await app.runService()
await store.shutdown()
