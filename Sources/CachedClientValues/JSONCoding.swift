import Foundation

/// How an API writes its JSON; one value per spec (`defaults.dates`).
@_spi(Generated)
public struct JSONCoding: Sendable, Hashable {
    /// The wire format of dates.
    public enum Dates: String, Sendable, Hashable {
        /// ISO 8601, with or without fractional seconds (`2024-05-01T10:00:00Z`, `…00.123Z`).
        case iso8601
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
    }

    /// The wire format of dates.
    public var dates: Dates

    /// Creates a coding; ISO 8601 dates by default.
    public init(dates: Dates = .iso8601) {
        self.dates = dates
    }

    /// A decoder for responses of this API.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        switch dates {
        case .iso8601:
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                if let date = ISO8601.parse(text) { return date }
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date, found \"\(text)\".")
            }
        case .secondsSince1970:
            decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970:
            decoder.dateDecodingStrategy = .millisecondsSince1970
        }
        return decoder
    }

    /// An encoder for request bodies of this API; keys sorted so equal bodies give equal bytes.
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch dates {
        case .iso8601:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(ISO8601.format(date))
            }
        case .secondsSince1970:
            encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970:
            encoder.dateEncodingStrategy = .millisecondsSince1970
        }
        return encoder
    }
}
