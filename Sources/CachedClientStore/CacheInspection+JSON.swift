@_spi(Generated) import CachedClientValues
import Foundation

// The inspection as JSON for scripts and tools, with stable field names (format 1):
//
//   { "format": 1, "date": ISO 8601,
//     "groups": [{ "scope": "shared" | "signed-out" | "user", "partition": name or null,
//                  "endpoint", "entries", "bytes", "oldest", "newest" (ISO 8601),
//                  "fresh", "stale", "unknownFreshness", "pinned" }],
//     "mutations": [{ "scope", "partition", "endpoint", "method", "createdAt", "attempts",
//                     "bodyBytes", "failure" (null while waiting), "sequence", "id" }],
//     "unreadable": [{ "file", "reason" }],
//     "values": [{ "kind": "entry" | "mutation", "scope", "partition", "endpoint", "path",
//                  "name", "body" (UTF-8 text, or null), "bodyBase64" (when not UTF-8, else null) }] }
//
// `values` is there only when bodies were asked for. Keys are sorted; a field is never
// left out (null instead), so a script can rely on each one.
extension CacheInspection {
    /// The version of the JSON's fields; a change that removes or renames one bumps it.
    public static let jsonFormat = 1

    /// The inspection as JSON, keys sorted, indented.
    public func json() -> String {
        let document = Document(
            format: Self.jsonFormat, date: ISO8601.format(date),
            groups: groups.map { group in
                Document.Group(
                    scope: Self.scope(group.partition), partition: Self.name(group.partition), endpoint: group.endpoint,
                    entries: group.entries, bytes: group.bytes, oldest: ISO8601.format(group.oldest),
                    newest: ISO8601.format(group.newest), fresh: group.fresh, stale: group.stale,
                    unknownFreshness: group.unknownFreshness, pinned: group.pinned)
            },
            mutations: mutations.map { mutation in
                Document.Mutation(
                    scope: Self.scope(mutation.partition), partition: Self.name(mutation.partition),
                    endpoint: mutation.endpoint, method: mutation.method, createdAt: ISO8601.format(mutation.createdAt),
                    attempts: mutation.attempts, bodyBytes: mutation.bodyBytes, failure: mutation.failure,
                    sequence: mutation.sequence, id: mutation.id)
            },
            unreadable: unreadable.map { Document.Unreadable(file: $0.file, reason: $0.reason) },
            values: values.isEmpty
                ? nil
                : values.map { value in
                    let text = String(data: value.body, encoding: .utf8)
                    return Document.Value(
                        kind: value.kind.rawValue, scope: Self.scope(value.partition), partition: Self.name(value.partition),
                        endpoint: value.endpoint, path: value.path, name: value.name, body: text,
                        bodyBase64: text == nil ? value.body.base64EncodedString() : nil)
                })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Every number is an integer and every date a string: encoding cannot fail.
        guard let data = try? encoder.encode(document) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func scope(_ partition: Partition) -> String {
        switch partition {
        case .shared: "shared"
        case .signedOut: "signed-out"
        case .user: "user"
        }
    }

    private static func name(_ partition: Partition) -> String? {
        if case .user(let name) = partition { return name }
        return nil
    }

    /// The JSON's shape; optionals are written as `null`, never left out.
    private struct Document: Encodable {
        struct Group: Encodable {
            var scope: String
            var partition: String?
            var endpoint: String
            var entries: Int
            var bytes: Int
            var oldest: String
            var newest: String
            var fresh: Int
            var stale: Int
            var unknownFreshness: Int
            var pinned: Int

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(scope, forKey: .scope)
                try container.encode(partition, forKey: .partition)
                try container.encode(endpoint, forKey: .endpoint)
                try container.encode(entries, forKey: .entries)
                try container.encode(bytes, forKey: .bytes)
                try container.encode(oldest, forKey: .oldest)
                try container.encode(newest, forKey: .newest)
                try container.encode(fresh, forKey: .fresh)
                try container.encode(stale, forKey: .stale)
                try container.encode(unknownFreshness, forKey: .unknownFreshness)
                try container.encode(pinned, forKey: .pinned)
            }

            enum CodingKeys: String, CodingKey {
                case scope, partition, endpoint, entries, bytes, oldest, newest, fresh, stale, unknownFreshness, pinned
            }
        }

        struct Mutation: Encodable {
            var scope: String
            var partition: String?
            var endpoint: String
            var method: String
            var createdAt: String
            var attempts: Int
            var bodyBytes: Int
            var failure: String?
            var sequence: UInt64
            var id: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(scope, forKey: .scope)
                try container.encode(partition, forKey: .partition)
                try container.encode(endpoint, forKey: .endpoint)
                try container.encode(method, forKey: .method)
                try container.encode(createdAt, forKey: .createdAt)
                try container.encode(attempts, forKey: .attempts)
                try container.encode(bodyBytes, forKey: .bodyBytes)
                try container.encode(failure, forKey: .failure)
                try container.encode(sequence, forKey: .sequence)
                try container.encode(id, forKey: .id)
            }

            enum CodingKeys: String, CodingKey {
                case scope, partition, endpoint, method, createdAt, attempts, bodyBytes, failure, sequence, id
            }
        }

        struct Unreadable: Encodable {
            var file: String
            var reason: String
        }

        struct Value: Encodable {
            var kind: String
            var scope: String
            var partition: String?
            var endpoint: String
            var path: String
            var name: String
            var body: String?
            var bodyBase64: String?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(kind, forKey: .kind)
                try container.encode(scope, forKey: .scope)
                try container.encode(partition, forKey: .partition)
                try container.encode(endpoint, forKey: .endpoint)
                try container.encode(path, forKey: .path)
                try container.encode(name, forKey: .name)
                try container.encode(body, forKey: .body)
                try container.encode(bodyBase64, forKey: .bodyBase64)
            }

            enum CodingKeys: String, CodingKey {
                case kind, scope, partition, endpoint, path, name, body, bodyBase64
            }
        }

        var format: Int
        var date: String
        var groups: [Group]
        var mutations: [Mutation]
        var unreadable: [Unreadable]
        var values: [Value]?
    }
}
