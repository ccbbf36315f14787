import CacheGenReading
import CacheGenSpec

/// Multipart responses (`multipart/form-data`, `multipart/mixed`, any `multipart/*`) read as
/// typed parts: the schema, an object, becomes a model with a property per part, read by
/// name (`format: binary` parts as `MultipartFile`, with their header fields); and the
/// per-part header fields of `encoding` (`encoding.<part>.headers`), both ways: on file
/// parts as `MultipartFile.headers`, on any other part by making its property a
/// `MultipartValue`. Which parts are files (`format: binary`) is read here for request bodies too.
package enum OpenAPIMultipart {
    /// The model of a multipart response; `type: nil` (read as bytes, with a warning) when
    /// its schema is missing or not an object of parts.
    package static func response(
        _ reading: OpenAPIMediaTypes.Reading, content: JSONNode?, hint: String, what: String, file: String,
        context: inout OpenAPIOperationContext
    ) -> (type: TypeRef?, location: SourceLocation?)?
    {
        guard let entry = content?[reading.mediaType] else { return (nil, nil) }
        let location = entry.keyLocation
        let asBytes = "the \(plainOrQuoted(reading.mediaType)) response of \(what) is read as bytes (Data)"
        for positional in ["itemSchema", "prefixEncoding", "itemEncoding"] {
            if let keyword = entry.value[positional] {
                context.warn("\(asBytes): its parts are described by position (\(positional)), and cachegen reads parts by name", at: keyword.keyLocation)
                return (nil, location)
            }
        }
        guard let schema = entry.value["schema"]?.value else {
            context.warn("\(asBytes): it has no schema naming its parts", at: location)
            return (nil, location)
        }
        switch context.schemas.type(of: schema, in: file, hint: hint) {
        case .type(.model(let model)) where isObjectSchema(schema, file: file, references: context.schemas.references):
            context.schemas.allowFiles(in: model)
            let properties = context.objectProperties(schema, file: file)
            for part in entry.value["encoding"]?.value.members ?? [] {
                let isFilePart = properties[part.key].map { isFile($0.node, file: $0.file, references: context.schemas.references) } ?? false
                checkPart(part, isFile: isFilePart, isProperty: properties[part.key] != nil, model: model, in: "the response of \(what)", file: file,
                    context: &context)
            }
            return (.model(model), schema.location)
        case .type(let type):
            context.warn("\(asBytes): its schema is \(type), not an object whose properties are its parts", at: schema.location)
            return (nil, location)
        case .leftOut(let reason):
            context.warn("\(asBytes): its schema is \(reason)", at: schema.location)
            return (nil, location)
        }
    }

    /// Carries what one part's `encoding` says, or warns: its header fields (`Content-Type`
    /// aside, which `contentType` describes) are kept on the part's property of `model` (a
    /// file keeps them itself); a response part's `contentType` that is neither JSON, text
    /// nor a file's is a warning.
    package static func checkPart(
        _ part: JSONMember, isFile: Bool, isProperty: Bool, model: String, in what: String, file: String, isResponse: Bool = true,
        context: inout OpenAPIOperationContext
    ) {
        if let headers = part.value["headers"] {
            let declared = (headers.value.members ?? []).filter { $0.key.lowercased() != "content-type" }.map { member in
                let header = context.schemas.references.resolve(member.value, in: file)?.node ?? member.value
                return PartHeader(name: member.key, isRequired: header["required"]?.value.boolValue ?? false)
            }
            if !declared.isEmpty, !isProperty {
                context.warn(
                    "the header fields \(declared.map { quoted($0.name) }.joined(separator: ", ")) of part \(quoted(part.key)) in \(what) are left out: "
                        + "the schema has no property \(quoted(part.key))",
                    at: headers.keyLocation)
            } else if !isFile {
                context.schemas.declarePartHeaders(declared, part: part.key, in: model)
            }
        }
        if isResponse, !isFile, let contentType = part.value["contentType"], let text = contentType.value.stringValue {
            let types = text.split(separator: ",").map { OpenAPIMediaTypes.essence(String($0)) }
            if !types.contains(where: { OpenAPIMediaTypes.isJSON($0) || $0.hasPrefix("text/") || $0 == "*/*" }) {
                context.warn(
                    "part \(quoted(part.key)) in \(what) is \(quoted(text)), which cachegen reads as JSON or text only: "
                        + "make its schema a file (format: binary) to read its bytes",
                    at: contentType.keyLocation)
            }
        }
    }

    /// Whether a schema (its `$ref`s followed) is an object: `type: object`, `properties`
    /// or `allOf` parts, so its properties can be parts.
    private static func isObjectSchema(_ schema: JSONNode, file: String, references: OpenAPIReferences) -> Bool {
        guard let target = references.resolve(schema, in: file) else { return false }
        let types = OpenAPISchemaShape.types(of: target.node)
        return types.contains("object") || target.node["properties"] != nil || target.node["allOf"] != nil
    }

    /// A `format: binary` string, an array of them, or a `oneOf`/`anyOf` with one of these
    /// among its variants: what a multipart body sends as a file.
    package static func isFile(_ node: JSONNode, file: String, references: OpenAPIReferences, depth: Int = 0) -> Bool {
        guard depth < 8, let target = references.resolve(node, in: file) else { return false }
        if let items = target.node["items"]?.value { return isFile(items, file: target.file, references: references, depth: depth + 1) }
        if let variants = (target.node["oneOf"] ?? target.node["anyOf"])?.value.elements {
            return variants.contains { isFile($0, file: target.file, references: references, depth: depth + 1) }
        }
        return target.node["format"]?.value.stringValue == "binary"
    }
}
