#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Request bodies: JSON when the document offers it, else the first media type cachegen
/// can send (a form, multipart parts, bytes, text), with its per-property `encoding`.
extension OpenAPIOperations {
    /// A mapped request body: its type, how it is sent, and where its schema is.
    struct RequestBody {
        var type: TypeRef
        var encoding: BodyEncoding
        var location: SourceLocation
    }

    /// The request body; `nil` when the operation must be left out, `body: nil` when there
    /// is none or it is dropped.
    mutating func requestBody(_ member: JSONMember, what: String, hint: String, method: String, file: String)
        -> (body: RequestBody?, location: SourceLocation)?
    {
        guard let target = schemas.references.resolve(member.value, in: file) else { return nil }
        let required = target.node["required"]?.value.boolValue == true
        guard let members = target.node["content"]?.value.members, !members.isEmpty else { return (nil, member.keyLocation) }
        if method == "GET" || method == "HEAD" {
            if required {
                leaveOut(what, "its request body is required, and a \(method) request cannot carry one", at: member.keyLocation)
                return nil
            }
            warn("the request body of \(what) is left out: a \(method) request carries none here", at: member.keyLocation)
            return (nil, member.keyLocation)
        }
        let chosen = members.first { Self.isJSON($0.key) } ?? members.first { Self.bodyKind(of: $0) != nil }
        guard let chosen, let kind = Self.bodyKind(of: chosen) else {
            return unusable("only " + members.map(\.key).joined(separator: ", "), required: required, what: what, at: member.keyLocation)
        }
        var encoding = BodyEncoding(kind: kind)
        switch kind {
        case .binary, .text:
            let essence = Self.essence(chosen.key)
            if essence != encoding.mediaType { encoding.contentType = essence.contains("*") ? nil : essence }
            let location = chosen.value["schema"]?.value.location ?? chosen.keyLocation
            return (RequestBody(type: .scalar(kind == .binary ? .data : .string), encoding: encoding, location: location), member.keyLocation)
        case .json, .form, .multipart:
            break
        }
        guard let schema = chosen.value["schema"]?.value else {
            guard kind == .json else {
                return unusable("\(chosen.key) without a schema", required: required, what: what, at: member.keyLocation)
            }
            return (nil, member.keyLocation)
        }
        switch schemas.type(of: schema, in: target.file, hint: hint) {
        case .type(let type):
            guard kind != .json else { return (RequestBody(type: type, encoding: encoding, location: schema.location), member.keyLocation) }
            guard case .model(let model) = type else {
                return unusable("\(chosen.key) of \(type), not an object", required: required, what: what, at: member.keyLocation)
            }
            if kind == .multipart { schemas.allowFiles(in: model) }
            encoding.fields = fields(chosen.value["encoding"], kind: kind, what: what)
            return (RequestBody(type: type, encoding: encoding, location: schema.location), member.keyLocation)
        case .leftOut(let reason):
            return unusable(reason, required: required, what: what, at: member.keyLocation)
        }
    }

    /// A body that cannot be sent: the operation left out when it is required, else the
    /// body dropped; each with a warning.
    private mutating func unusable(_ reason: String, required: Bool, what: String, at location: SourceLocation)
        -> (body: RequestBody?, location: SourceLocation)?
    {
        if required {
            leaveOut(what, "its request body is \(reason)", at: location)
            return nil
        }
        warn("the request body of \(what) is left out: it is \(reason)", at: location)
        return (nil, location)
    }

    /// The `encoding` map of a form or multipart body: each property's style, explode and
    /// content type; a style a form cannot take is ignored with a warning.
    private mutating func fields(_ member: JSONMember?, kind: BodyEncoding.Kind, what: String) -> [BodyEncoding.Field] {
        var fields: [BodyEncoding.Field] = []
        for entry in member?.value.members ?? [] {
            var field = BodyEncoding.Field(name: Named(name: entry.key, location: entry.keyLocation))
            // A list (`image/png, image/jpeg`) or a range (`image/*`) says what is accepted, not
            // what to send; a file part sends its own type.
            field.contentType = entry.value["contentType"]?.value.stringValue.flatMap { $0.contains(where: { $0 == "*" || $0 == "," }) ? nil : $0 }
            if kind == .form {
                if let style = entry.value["style"] {
                    let text = style.value.stringValue ?? ""
                    if let value = BodyEncoding.Style(rawValue: text) {
                        field.style = value
                    } else {
                        warn(
                            "the style \(quoted(text)) of property \(quoted(entry.key)) in the request body of \(what) is ignored: a form takes form, spaceDelimited, pipeDelimited or deepObject",
                            at: style.keyLocation)
                    }
                }
                field.explode = entry.value["explode"]?.value.boolValue
            }
            if field.style != nil || field.explode != nil || field.contentType != nil { fields.append(field) }
        }
        return fields
    }

    /// How a request body of this media type is sent; `nil` when cachegen cannot send it.
    static func bodyKind(of content: JSONMember) -> BodyEncoding.Kind? {
        let essence = essence(content.key)
        if isJSON(essence) { return .json }
        if essence == "application/x-www-form-urlencoded" { return .form }
        if essence == "multipart/form-data" { return .multipart }
        if essence.hasPrefix("text/") { return .text }
        let binaryTypes = ["application/octet-stream", "application/pdf", "application/zip"]
        if binaryTypes.contains(essence) || ["image/", "audio/", "video/"].contains(where: essence.hasPrefix) { return .binary }
        let schema = content.value["schema"]?.value
        if schema?["format"]?.value.stringValue == "binary" { return .binary }
        return nil
    }

    /// A media type without its parameters, lower case.
    static func essence(_ mediaType: String) -> String {
        mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    }
}
