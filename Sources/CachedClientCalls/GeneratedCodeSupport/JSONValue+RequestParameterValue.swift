@_spi(Generated) import CachedClientValues
import Foundation

extension JSONValue: RequestParameterValue {
    /// The value as text in a path segment, query item or header, as OpenAPI's `simple`
    /// style writes it: a string as it is, a number or Boolean as JSON writes it, `null` as
    /// nothing, an array's elements joined by commas, an object's keys (sorted) and values
    /// joined by commas. A parameter that is a union of several types keeps a value none of
    /// them decodes as `JSONValue`, and sends it so.
    public var requestParameterText: String {
        switch self {
        case .null: ""
        case .bool(let value): value.requestParameterText
        case .integer(let value): value.requestParameterText
        case .unsignedInteger(let value): String(value)
        case .number(let value): value.requestParameterText
        case .string(let value): value.requestParameterText
        case .array(let elements): elements.map(\.requestParameterText).joined(separator: ",")
        case .object(let members):
            members.sorted { $0.key < $1.key }.flatMap { [$0.key.requestParameterText, $0.value.requestParameterText] }
                .joined(separator: ",")
        }
    }
}
