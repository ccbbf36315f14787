import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs a statement whose rows, if any, nobody needs, reading them to the end: a row
    /// sequence left unread would keep its connection from the pool.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows, if any, nobody needs, reading them to the end: the next
    /// statement on the connection waits until they are.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
