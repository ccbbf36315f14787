import Foundation
import PostgresNIO

extension PostgresCacheStore {
    /// The pool settings a URL names: `postgres://[user[:password]@]host[:port][/database]`,
    /// percent-decoded, with `?sslmode=require` (or `verify-full`) for TLS that must succeed
    /// and `?sslmode=prefer` for TLS when the server offers it; without it, no TLS.
    /// `host` may be a folder holding the server's socket (`postgres://user@%2Fvar%2Frun%2Fpostgresql/db`).
    public static func configuration(url text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.percentEncodedHost.flatMap({ $0.removingPercentEncoding }), !host.isEmpty
        else { throw PostgresCacheStoreError.invalidURL }
        let username = components.user ?? "postgres"
        let password = components.password
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        if host.hasPrefix("/") {
            let port = components.port ?? 5432
            return PostgresClient.Configuration(
                unixSocketPath: host + "/.s.PGSQL.\(port)", username: username, password: password,
                database: database.isEmpty ? nil : database)
        }
        let tls: PostgresClient.Configuration.TLS
        switch sslMode {
        case "disable", "allow": tls = .disable
        case "prefer": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: throw PostgresCacheStoreError.invalidURL
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: username, password: password,
            database: database.isEmpty ? nil : database, tls: tls)
    }
}
