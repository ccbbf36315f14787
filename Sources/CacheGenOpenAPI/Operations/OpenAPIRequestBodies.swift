#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Request bodies: JSON when the document offers it (multipart instead when only multipart
/// can carry a file the operation takes), else the first media type cachegen can send (a
/// form, multipart parts, bytes, text), with its per-property `encoding`.
package enum OpenAPIRequestBodies {
    /// A mapped request body: its type, how it is sent, and where its schema is.
    package struct RequestBody {
        /// The body's type.
        package var type: TypeRef
        /// How it is sent: its media type and its properties' encodings.
        package var encoding: BodyEncoding
        /// Where its schema is in the document.
        package var location: SourceLocation
    }

    /// The request body; `nil` when the operation must be left out, `body: nil` when there
    /// is none or it is dropped.
    package static func read(
        _ member: JSONMember, what: String, hint: String, method: String, file: String, context: inout OpenAPIOperationContext
    ) -> (body: RequestBody?, location: SourceLocation)?
    {
        guard let target = context.schemas.references.resolve(member.value, in: file, otherwise: "the request body of \(what) is sent as any JSON (JSONValue)")
        else {
            return (RequestBody(type: .scalar(.json), encoding: BodyEncoding(kind: .json), location: member.value.location), member.keyLocation)
        }
        let hint = OpenAPIPlaceName.sharedHint(target, otherwise: hint, references: context.schemas.references)
        let required = target.node["required"]?.value.boolValue == true
        guard let members = context.content(of: target.node["content"]?.value, file: target.file)?.members, !members.isEmpty else {
            return (nil, member.keyLocation)
        }
        if method == "GET" || method == "HEAD" {
            if required {
                context.leaveOut(what, "its request body is required, and a \(method) request cannot carry one", at: member.keyLocation)
                return nil
            }
            context.warn("the request body of \(what) is left out: a \(method) request carries none here", at: member.keyLocation)
            return (nil, member.keyLocation)
        }
        let json = members.first { OpenAPIMediaTypes.isJSON($0.key) }
        var chosen = json ?? members.first { OpenAPIMediaTypes.bodyKind(of: $0) != nil }
        if let json, let multipart = members.first(where: { OpenAPIMediaTypes.essence($0.key) == "multipart/form-data" }),
            carriesFilesJSONCannot(multipart: multipart, json: json, file: target.file, context: context)
        {
            chosen = multipart
        }
        guard let chosen, let kind = OpenAPIMediaTypes.bodyKind(of: chosen) else {
            return unusable("only " + members.map { plainOrQuoted($0.key) }.joined(separator: ", "), required: required, what: what, at: member.keyLocation, context: &context)
        }
        var encoding = BodyEncoding(kind: kind)
        switch kind {
        case .binary, .text:
            let essence = OpenAPIMediaTypes.essence(chosen.key)
            if essence.contains("*") {
                // A range (`image/*`, `*/*`) says what the server takes: the caller names the
                // type sent, by default the first concrete one the document lists of this kind.
                encoding.callerContentType = true
                encoding.contentType = members.lazy.filter { OpenAPIMediaTypes.bodyKind(of: $0) == kind }.map { OpenAPIMediaTypes.essence($0.key) }
                    .first { !$0.contains("*") }
            } else if essence != encoding.mediaType {
                encoding.contentType = essence
            }
            let location = chosen.value["schema"]?.value.location ?? chosen.keyLocation
            return (RequestBody(type: .scalar(kind == .binary ? .data : .string), encoding: encoding, location: location), member.keyLocation)
        case .json, .form, .multipart:
            break
        }
        guard let schema = chosen.value["schema"]?.value else {
            guard kind == .json else {
                return unusable("\(plainOrQuoted(chosen.key)) without a schema", required: required, what: what, at: member.keyLocation, context: &context)
            }
            return (nil, member.keyLocation)
        }
        switch context.schemas.type(of: schema, in: target.file, hint: hint) {
        case .type(let type):
            guard kind != .json else { return (RequestBody(type: type, encoding: encoding, location: schema.location), member.keyLocation) }
            guard case .model(let model) = type else {
                return unusable("\(plainOrQuoted(chosen.key)) of \(type), not an object", required: required, what: what, at: member.keyLocation, context: &context)
            }
            if kind == .multipart { context.schemas.allowFiles(in: model) }
            let properties = kind == .multipart ? context.objectProperties(schema, file: target.file) : [:]
            encoding.fields = fields(
                chosen.value["encoding"], kind: kind, what: what, properties: properties, model: model, file: target.file, context: &context)
            return (RequestBody(type: type, encoding: encoding, location: schema.location), member.keyLocation)
        case .leftOut(let reason):
            return unusable(reason, required: required, what: what, at: member.keyLocation, context: &context)
        }
    }

    /// A body that cannot be sent: the operation left out when it is required, else the
    /// body dropped; each with a warning.
    private static func unusable(
        _ reason: String, required: Bool, what: String, at location: SourceLocation, context: inout OpenAPIOperationContext
    ) -> (body: RequestBody?, location: SourceLocation)?
    {
        if required {
            context.leaveOut(what, "its request body is \(reason)", at: location)
            return nil
        }
        context.warn("the request body of \(what) is left out: it is \(reason)", at: location)
        return (nil, location)
    }

    /// The `encoding` map of a form or multipart body: each property's style, explode and
    /// content type; a style a form cannot take is ignored with a warning.
    private static func fields(
        _ member: JSONMember?, kind: BodyEncoding.Kind, what: String, properties: [String: (node: JSONNode, file: String)] = [:], model: String,
        file: String, context: inout OpenAPIOperationContext
    )
        -> [BodyEncoding.Field]
    {
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
                        context.warn(
                            "the style \(quoted(text)) of property \(quoted(entry.key)) in the request body of \(what) is ignored: a form takes form, spaceDelimited, pipeDelimited or deepObject",
                            at: style.keyLocation)
                    }
                }
                field.explode = entry.value["explode"]?.value.boolValue
            }
            if kind == .multipart {
                let property = properties[entry.key]
                let references = context.schemas.references
                OpenAPIMultipart.checkPart(
                    entry, isFile: property.map { OpenAPIMultipart.isFile($0.node, file: $0.file, references: references) } ?? false,
                    isProperty: property != nil, model: model, in: "the request body of \(what)", file: file, isResponse: false, context: &context)
            }
            if field.style != nil || field.explode != nil || field.contentType != nil { fields.append(field) }
        }
        return fields
    }

    /// Whether a multipart body has a file (a `format: binary` string, or an array of them)
    /// that the JSON body of the same operation lacks or has only as a string, so only
    /// multipart can send it: OpenAI's image edits upload `image` as a file in multipart
    /// and name images by URL in JSON.
    private static func carriesFilesJSONCannot(multipart: JSONMember, json: JSONMember, file: String, context: OpenAPIOperationContext) -> Bool {
        let files = context.objectProperties(multipart.value["schema"]?.value, file: file).filter {
            OpenAPIMultipart.isFile($0.value.node, file: $0.value.file, references: context.schemas.references)
        }
        guard !files.isEmpty else { return false }
        let carried = context.objectProperties(json.value["schema"]?.value, file: file)
        return files.keys.contains { name in
            guard let property = carried[name], let target = context.schemas.references.resolve(property.node, in: property.file) else { return true }
            return OpenAPISchemaShape.types(of: target.node) == ["string"]
        }
    }
}
