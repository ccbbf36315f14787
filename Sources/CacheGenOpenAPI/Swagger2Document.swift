#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading

/// A Swagger 2.0 document read as it is: its tree turned into the OpenAPI 3.0 tree the
/// reader maps, every node keeping where it is in the user's 2.0 file (or in the file a
/// `$ref` led to), so each warning points there.
///
/// What moves: `definitions`, `parameters` and `responses` into `components` (and every
/// `$ref` with them, into other files too); `securityDefinitions` into
/// `components.securitySchemes`; `host`, `basePath` and `schemes` into `servers`; an
/// `in: body` parameter into `requestBody` and `in: formData` ones into a form or multipart
/// body, as `consumes` says; `produces` into each response's `content`; a parameter's
/// `type` and its other schema keywords into `schema`, `collectionFormat` into `style` and
/// `explode`; `type: file` into a binary string, `x-nullable` into `nullable`. What has no
/// 3.0 form is a located warning; anything else 2.0's keyword tables (`OpenAPIKeywords.v2`)
/// know is carried as it is, for the reader to map. A key they do not know is left out, and
/// the keyword walk of the 2.0 document as written warns at it.
///
/// Parameters and responses that are `$ref`s are put in place where they are used (a body
/// parameter becomes part of a request body, a response takes its operation's `produces`);
/// the `$ref`s that cannot be followed are warned about by the same follower the reader
/// uses, with the same words.
package struct Swagger2Document {
    /// The 2.0 document as read.
    private let root: JSONNode
    /// Its path, as locations name it.
    private let file: String
    /// Follows `$ref`s through the 2.0 trees (the document's and the files it names).
    let references: OpenAPIReferences
    /// What the conversion reported, in the order it was found.
    package internal(set) var diagnostics: [Diagnostic] = []
    /// The operation (`get /pets`, as `OpenAPIOperations.Presence.key` names it) each warning
    /// about one operation is about.
    var owners: [Diagnostic: String] = [:]

    /// A converted document and what converting it reported.
    package struct Conversion {
        /// The document as OpenAPI 3.0.
        package var document: JSONNode
        /// Every warning, in the order found.
        package var diagnostics: [Diagnostic]
        /// The operation each warning about one operation is about.
        package var owners: [Diagnostic: String]
        /// The 2.0 document as the user wrote it, which the keyword walk checks.
        package var original: JSONNode
        /// Follows `$ref`s through the 2.0 trees, as the user wrote them.
        package var references: OpenAPIReferences
        /// The `$ref` texts of the 2.0 document as written, by the location of their value,
        /// so a warning about a rewritten one quotes the user's text.
        package var writtenReferences: [SourceLocation: String]

        /// The warnings about the whole document and about the operations `keys` names
        /// (every one when `nil`), so a narrowed mapping warns only about what it chose.
        package func diagnostics(only keys: Set<String>?) -> [Diagnostic] {
            guard let keys else { return diagnostics }
            return diagnostics.filter { owners[$0].map(keys.contains) ?? true }
        }
    }

    /// The media types an operation takes and gives, and the file its nodes are in.
    struct Scope {
        /// The file whose relative `$ref`s the nodes hold.
        var file: String
        /// `consumes`, the operation's or else the document's.
        var consumes: [String]
        /// `produces`, the operation's or else the document's.
        var produces: [String]
    }

    /// Whether `root` is a Swagger document (it has `swagger`, whatever its version).
    package static func isSwagger(_ root: JSONNode) -> Bool { root["swagger"] != nil }

    /// The version error of a `swagger` that is not `"2.0"`; `nil` for 2.0.
    package static func versionProblem(_ root: JSONNode) -> Diagnostic? {
        guard let member = root["swagger"] else { return nil }
        let text = member.value.stringValue ?? member.value.numberText ?? ""
        guard text == "2.0" else {
            return .error(
                "unsupported Swagger version \(quoted(text)); cachegen reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2",
                at: member.value.location)
        }
        return nil
    }

    /// - Parameters:
    ///   - root: the 2.0 document, already read.
    ///   - file: its path; the files its `$ref`s name are found next to it.
    ///   - read: reads another file's bytes, `nil` when it cannot.
    package init(root: JSONNode, file: String, read: @escaping @Sendable (String) -> Data?) {
        self.root = root
        self.file = file
        references = OpenAPIReferences(root: root, file: file, read: read)
    }

    /// The document as OpenAPI 3.0, and what converting it reported.
    package static func converted(_ root: JSONNode, file: String, read: @escaping @Sendable (String) -> Data?) -> Conversion {
        var document = Swagger2Document(root: root, file: file, read: read)
        let converted = document.converted()
        var seen: Set<Diagnostic> = []
        let all = (document.diagnostics + document.references.diagnostics).sorted { $0.location < $1.location }
        return Conversion(
            document: converted, diagnostics: all.filter { seen.insert($0).inserted }, owners: document.owners, original: root,
            references: document.references, writtenReferences: document.writtenReferences())
    }

    /// The `$ref` texts as written in the document and in every file the conversion read
    /// (path items, parameters and responses in other files are put in place in the document,
    /// their `$ref`s rewritten), by the location of their value.
    private func writtenReferences() -> [SourceLocation: String] {
        references.documents.values.reduce(into: [:]) { texts, node in
            texts.merge(Self.writtenReferences(in: node)) { first, _ in first }
        }
    }

    /// The document as OpenAPI 3.0.
    package mutating func converted() -> JSONNode {
        let scope = Scope(file: file, consumes: Self.strings(root["consumes"]), produces: Self.strings(root["produces"]))
        var members: [JSONMember] = []
        var components: [JSONMember] = []
        for member in root.members ?? [] {
            switch member.key {
            case "swagger":
                members.append(JSONMember(key: "openapi", keyLocation: member.keyLocation, value: Self.string("3.0.3", at: member.value.location)))
                if let servers = servers() { members.append(servers) }
            case "host", "basePath", "schemes", "consumes", "produces":
                continue
            case "paths":
                members.append(JSONMember(key: "paths", keyLocation: member.keyLocation, value: paths(member.value, scope: scope)))
            case "definitions":
                components.append(
                    JSONMember(key: "schemas", keyLocation: member.keyLocation, value: Self.schema(member.value, rebase: { $0 }, namesMembers: true)))
            case "parameters":
                // Body and form parameters have no place among 3.0's; they are put in place where used.
                let kept = (member.value.members ?? []).filter { !Self.isBodyOrForm($0.value) }.map {
                    JSONMember(key: $0.key, keyLocation: $0.keyLocation, value: parameter($0.value, scope: scope))
                }
                components.append(JSONMember(key: "parameters", keyLocation: member.keyLocation, value: Self.object(kept, at: member.value.location)))
            case "responses":
                let kept = (member.value.members ?? []).map {
                    JSONMember(key: $0.key, keyLocation: $0.keyLocation, value: response($0.value, scope: scope))
                }
                components.append(JSONMember(key: "responses", keyLocation: member.keyLocation, value: Self.object(kept, at: member.value.location)))
            case "securityDefinitions":
                components.append(
                    JSONMember(key: "securitySchemes", keyLocation: member.keyLocation, value: securitySchemes(member.value)))
            default:
                if Self.carries(member.key, of: .document) { members.append(member) }
            }
        }
        if let first = components.first {
            members.append(JSONMember(key: "components", keyLocation: first.keyLocation, value: Self.object(components, at: first.keyLocation)))
        }
        return Self.object(members, at: root.location)
    }

    /// `servers` made of `schemes` (https first), `host` and `basePath`: a relative URL of
    /// `basePath` alone without a host; `nil` when there is neither. A host without schemes is
    /// served over https, as is one whose schemes are only `ws` or `wss` (with a warning).
    private mutating func servers() -> JSONMember? {
        let host = root["host"]
        let basePath = root["basePath"]
        guard let anchor = host ?? basePath else { return nil }
        let path = basePath?.value.stringValue ?? ""
        var urls: [String] = []
        if let name = host?.value.stringValue {
            var schemes = Self.strings(root["schemes"]).map { $0.lowercased() }.filter { $0 == "https" || $0 == "http" }
            schemes.sort { $0 == "https" && $1 != "https" }
            if schemes.isEmpty {
                if let listed = root["schemes"], !Self.strings(listed).isEmpty {
                    diagnostics.append(
                        .warning(
                            "the schemes \(Self.strings(listed).joined(separator: ", ")) are not HTTP, which cachegen calls with, so the server is https://\(name)\(path)",
                            at: listed.value.location))
                }
                schemes = ["https"]
            }
            urls = schemes.map { "\($0)://\(name)\(path)" }
        } else {
            urls = [path]
        }
        let location = anchor.value.location
        let servers = urls.map { url in
            Self.object([JSONMember(key: "url", keyLocation: location, value: Self.string(url, at: location))], at: location)
        }
        return JSONMember(key: "servers", keyLocation: anchor.keyLocation, value: JSONNode(value: .array(servers), location: location))
    }

    /// Whether the converted tree carries `key` of a 2.0 object of `kind`: an extension, or a
    /// key 2.0's tables know. Any other is left out, as the keyword walk of the 2.0 document
    /// says where it is written, so the reader never maps a key that walk calls unknown.
    static func carries(_ key: String, of kind: OpenAPIKeywords.Kind) -> Bool {
        key.hasPrefix("x-") || OpenAPIKeywords.v2[kind].keys[key] != nil
    }

    /// The `$ref` texts of a 2.0 tree as written, by the location of their value; walked
    /// without recursion.
    package static func writtenReferences(in root: JSONNode) -> [SourceLocation: String] {
        var texts: [SourceLocation: String] = [:]
        var stack = [root]
        while let node = stack.popLast() {
            switch node.value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", let text = member.value.stringValue { texts[member.value.location] = text } else { stack.append(member.value) }
                }
            case .array(let items):
                stack += items
            default:
                break
            }
        }
        return texts
    }

    /// The media types a body or response is offered in: those listed, JSON for none or
    /// only ranges (bytes in `fallbackFile` for a file).
    static func mediaTypes(_ listed: [String], isFile: Bool, fallbackFile: String) -> [String] {
        let concrete = listed.filter { !OpenAPIMediaTypes.essence($0).hasPrefix("*/") && !OpenAPIMediaTypes.essence($0).hasSuffix("/*") }
        if isFile { return listed.isEmpty ? [fallbackFile] : listed }
        return concrete.isEmpty ? ["application/json"] + listed.filter { OpenAPIMediaTypes.essence($0) != "*/*" } : listed
    }

    /// Whether a schema (or 2.0 parameter) is a file: `type: file`.
    static func isFile(_ node: JSONNode) -> Bool {
        node["type"]?.value.stringValue == "file"
            || (node["type"]?.value.stringValue == "string" && node["format"]?.value.stringValue == "binary")
    }

    /// `securityDefinitions` as `securitySchemes`: `basic` as http basic, `apiKey` as it is,
    /// `oauth2` with its one flow under `flows` (`application` is `clientCredentials`,
    /// `accessCode` is `authorizationCode`).
    private mutating func securitySchemes(_ node: JSONNode) -> JSONNode {
        let schemes = (node.members ?? []).map { member -> JSONMember in
            guard let type = member.value["type"] else { return member }
            var members: [JSONMember] = []
            var flow: [JSONMember] = []
            var flowName: JSONMember?
            for child in member.value.members ?? [] {
                switch child.key {
                case "type" where type.value.stringValue == "basic":
                    members.append(JSONMember(key: "type", keyLocation: child.keyLocation, value: Self.string("http", at: child.value.location)))
                    members.append(JSONMember(key: "scheme", keyLocation: child.keyLocation, value: Self.string("basic", at: child.value.location)))
                case "flow" where type.value.stringValue == "oauth2":
                    let names = ["implicit": "implicit", "password": "password", "application": "clientCredentials", "accessCode": "authorizationCode"]
                    let text = child.value.stringValue ?? ""
                    if let name = names[text] {
                        flowName = JSONMember(key: name, keyLocation: child.keyLocation, value: child.value)
                    } else {
                        diagnostics.append(
                            .warning(
                                "the OAuth 2 flow \(quoted(text)) of security scheme \(quoted(member.key)) is not one of Swagger 2.0's (implicit, password, application, accessCode), so it is left out",
                                at: child.value.location))
                    }
                default:
                    let isFlowMember = ["authorizationUrl", "tokenUrl", "scopes"].contains(child.key)
                    if isFlowMember, type.value.stringValue == "oauth2" { flow.append(child) } else { members.append(child) }
                }
            }
            if let flowName {
                let flowNode = Self.object(flow, at: flowName.value.location)
                let flows = Self.object([JSONMember(key: flowName.key, keyLocation: flowName.keyLocation, value: flowNode)], at: flowName.value.location)
                members.append(JSONMember(key: "flows", keyLocation: flowName.keyLocation, value: flows))
            }
            return JSONMember(key: member.key, keyLocation: member.keyLocation, value: Self.object(members, at: member.value.location))
        }
        return Self.object(schemes, at: node.location)
    }

    /// How a `$ref` written in `source` is written in the document: the same when `source`
    /// is the document, else with its file part made relative to the document's folder.
    func rebase(from source: String) -> (String) -> String {
        guard source != file else { return { $0 } }
        let folder = OpenAPIReferences.pathParts(file, omittingEmpty: false).dropLast().joined(separator: "/")
        let prefix = folder.isEmpty ? "" : folder + "/"
        return { text in
            let (filePart, pointer) = OpenAPIReferences.parts(of: text)
            guard !filePart.contains("://") else { return text }
            let target = filePart.isEmpty ? source : OpenAPIReferences.path(filePart, nextTo: source)
            let relative = target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : target
            return text.contains("#") ? relative + "#" + pointer : relative
        }
    }

    // MARK: - Building nodes

    /// An object node.
    static func object(_ members: [JSONMember], at location: SourceLocation) -> JSONNode {
        JSONNode(value: .object(members), location: location)
    }

    /// A string node.
    static func string(_ text: String, at location: SourceLocation) -> JSONNode {
        JSONNode(value: .string(text), location: location)
    }

    /// The strings of a list member (`consumes`, `produces`, `schemes`).
    static func strings(_ member: JSONMember?) -> [String] {
        member?.value.elements?.compactMap(\.stringValue) ?? []
    }
}
