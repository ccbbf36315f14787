@_spi(Generated) import CachedClientValues
import Foundation

/// Writes a request body's value as `application/x-www-form-urlencoded` or
/// `multipart/form-data` (RFC 7578), property by property, as `BodyField`s say.
package enum FormBody {
    /// `name=value` pairs joined by `&`: arrays exploded (`a=1&a=2`), objects as
    /// `deepObject` (`card[number]=…`), `nil` properties left out, space as `+`.
    package static func urlEncoded(_ value: FormValue, fields: [BodyField]) -> Data {
        var pairs: [(String, String)] = []
        for (name, member) in members(of: value) {
            let field = fields.first { $0.name == name }
            if let contentType = field?.contentType, isJSON(contentType) {
                pairs.append((name, member.json))
                continue
            }
            switch member {
            case .null: continue
            case .array(let elements):
                let texts = elements.filter { !$0.isNull }
                switch field?.style {
                case .spaceDelimited: pairs.append((name, texts.map(\.fieldText).joined(separator: " ")))
                case .pipeDelimited: pairs.append((name, texts.map(\.fieldText).joined(separator: "|")))
                case .deepObject: deepObject(name, member, into: &pairs)
                case .form?, nil:
                    if field?.explode ?? true {
                        for element in texts { pairs.append((name, element.fieldText)) }
                    } else {
                        pairs.append((name, texts.map(\.fieldText).joined(separator: ",")))
                    }
                }
            case .object(let properties):
                switch field?.style {
                case .form?:
                    let present = properties.filter { !$0.1.isNull }
                    if field?.explode ?? true {
                        for (key, property) in present { pairs.append((key, property.fieldText)) }
                    } else {
                        pairs.append((name, present.map { $0.0 + "," + $0.1.fieldText }.joined(separator: ",")))
                    }
                default: deepObject(name, member, into: &pairs)
                }
            default: pairs.append((name, member.fieldText))
            }
        }
        let text = pairs.map { PercentEncoding.encodeFormComponent($0.0) + "=" + PercentEncoding.encodeFormComponent($0.1) }
            .joined(separator: "&")
        return Data(text.utf8)
    }

    /// `name[key]=value` for every leaf, as deep as the value goes; array elements by index.
    private static func deepObject(_ name: String, _ value: FormValue, into pairs: inout [(String, String)]) {
        switch value {
        case .null: break
        case .object(let properties):
            for (key, property) in properties { deepObject(name + "[" + key + "]", property, into: &pairs) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { deepObject(name + "[\(index)]", element, into: &pairs) }
        default: pairs.append((name, value.fieldText))
        }
    }

    /// The parts of a multipart body: a file with its name and its own type, a field for
    /// text, JSON for an object, one part per element of an array; `nil` properties left out.
    package static func multipart(_ value: FormValue, fields: [BodyField], boundary: String) -> Data {
        var body = Data()
        for (name, member) in members(of: value) {
            let contentType = fields.first { $0.name == name }?.contentType
            let elements: [FormValue] = if case .array(let elements) = member, contentType.map(isJSON) != true { elements } else { [member] }
            for headed in elements where !headed.isNull {
                // A `MultipartValue`: its value is the part, its header fields the part's.
                var element = headed
                var declared: [String: String] = [:]
                if case .part(let value, let headers) = headed {
                    element = value
                    declared = headers
                }
                body.append(contentsOf: Array("--\(boundary)\r\n".utf8))
                var disposition = "Content-Disposition: form-data; name=\"\(escaped(name))\""
                let partType: String?
                let content: Data
                switch element {
                case .file(let file):
                    disposition += "; filename=\"\(escaped(file.filename))\""
                    partType = file.contentType
                    content = file.data
                    declared = file.headers
                case .object, .array:
                    partType = contentType ?? "application/json"
                    content = Data(element.json.utf8)
                default:
                    partType = contentType
                    content = Data((contentType.map(isJSON) == true ? element.json : element.fieldText).utf8)
                }
                let extra = declared.filter { !["content-type", "content-disposition", "content-length"].contains($0.key.lowercased()) }
                    .sorted { $0.key < $1.key }.map { (fieldName($0.key), oneLine($0.value)) }
                body.append(contentsOf: Array((disposition + "\r\n").utf8))
                if let partType { body.append(contentsOf: Array("Content-Type: \(oneLine(partType))\r\n".utf8)) }
                for (field, fieldValue) in extra where !field.isEmpty { body.append(contentsOf: Array("\(field): \(fieldValue)\r\n".utf8)) }
                body.append(contentsOf: Array("\r\n".utf8))
                body.append(content)
                body.append(contentsOf: Array("\r\n".utf8))
            }
        }
        body.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        return body
    }

    /// A fresh boundary: 32 random hexadecimal digits after a fixed prefix, which no part
    /// is likely to contain.
    package static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "cachegen-" + hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A top-level value's properties; a body that is not an object has none.
    private static func members(of value: FormValue) -> [(String, FormValue)] {
        if case .object(let members) = value { members } else { [] }
    }

    /// A name in a `Content-Disposition` quoted string: `"`, CR and LF percent-encoded
    /// (RFC 7578 §4.2, as browsers do).
    private static func escaped(_ name: String) -> String {
        guard name.contains(where: { $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return name }
        return name.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r\n", with: "%0D%0A")
            .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A header value on one line: CR and LF (which would start a field of the caller's
    /// choosing) sent as spaces.
    private static func oneLine(_ value: String) -> String {
        guard value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return value }
        return String(value.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) })
    }

    /// A header name as a token: characters that cannot be in one (space, `:`, controls) left out.
    private static func fieldName(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.value > 32 && $0.value < 127 && $0 != ":" }.map(Character.init))
    }

    /// `application/json`, or a `+json` type, with or without parameters.
    package static func isJSON(_ mediaType: String) -> Bool {
        let essence = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return essence == "application/json" || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }
}

extension FormValue {
    /// Whether the value is an explicit `nil`.
    package var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
