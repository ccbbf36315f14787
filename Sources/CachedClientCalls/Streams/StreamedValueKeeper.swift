import CachedClientStore
@_spi(Generated) import CachedClientValues
import Foundation

/// Reads and writes one run's finished value of a stream (`StreamOrigin.keeper(name:)`).
package struct StreamedValueKeeper: Sendable {
    package let client: CachedClient
    package let call: Call

    /// The key of a stream's finished value named `name`, kept beside the answers of the request
    /// keyed `key`: a text no request makes, with that key's endpoint, partition and path.
    package static func key(of key: CacheKey, name: String) -> CacheKey {
        CacheKey(text: key.text + "\nstreamed value " + name, endpoint: key.endpoint, partition: key.partition, path: key.path)
    }

    /// The last finished value kept, with the date it was kept; `nil` when there is none,
    /// it is older than the rule's `maxStale`, or it no longer decodes (it is then removed,
    /// and reported, as any unreadable entry).
    package func stored<Value: Decodable & Sendable>(as type: Value.Type) async -> CachedValue<Value>? {
        guard let entry = await client.reader.entry(call, writingBackWith: client.writer),
            client.now().timeIntervalSince(entry.date) <= call.rule.maxStale,
            let value = await client.writer.decodeStored(entry, call, as: type)
        else {
            return nil
        }
        return .cached(value: value, date: entry.date)
    }

    /// Keeps `value` as the finished value, dated now, through the client's writer (which
    /// skips it when the partition changed or a removal covered the key since the run
    /// started); a value that does not encode is reported as an `.error` event.
    package func keep<Value: Encodable & Sendable>(_ value: Value) {
        let body: Data
        do {
            body = try call.endpoint.coding.makeEncoder().encode(value)
        } catch {
            client.writer.events.emit(
                .error, call, message: "streamed value not kept: \(client.writer.events.safeDescription(of: error))")
            return
        }
        client.writer.write(CacheEntry(body: body, date: client.now()), call, value: value, reportingStore: true)
    }
}
