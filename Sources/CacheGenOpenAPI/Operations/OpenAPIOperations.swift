#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Turns `paths` into endpoints, one step per part of an operation: its parameters with their
/// types (`OpenAPIParameters`), the request body (JSON, a form, multipart parts, bytes or text:
/// `OpenAPIRequestBodies`), the 2xx response (JSON, bytes, text, multipart parts or a stream of
/// events: `OpenAPIResponses`), its own server (`OpenAPIServers`), and the event-stream method
/// of an operation that also streams (`OpenAPIEventStreams`). An operation that cannot be called
/// faithfully (a required body cachegen cannot send, a required parameter that cannot be sent
/// as text) is left out with a warning naming it; a part that can be dropped safely is dropped
/// with a warning.
package struct OpenAPIOperations {
    /// One mapped operation with the tag it is grouped by.
    package struct Operation {
        /// The endpoint, without its cache rule yet.
        package var endpoint: EndpointSpec
        /// The operation object, for `x-cachegen`.
        package var node: JSONNode
        /// The operation's tags, in the document's order; `include` and `exclude` match any,
        /// and the first that is not a mark (OpenAPI 3.2's `kind`) names its repository.
        package var tags: [String]
        /// For the event-stream method of an operation that also answers in another format,
        /// the operation's name: the stream is never cached and takes no rules of its own.
        package var streamOf: String? = nil
    }

    /// An operation as `include` and `exclude` see it, before it is mapped.
    package struct Presence {
        /// `get /pets/{id}`: the method and the path as the document writes it.
        package var key: String
        /// Its name.
        package var name: String
        /// Its tags.
        package var tags: [String]
        /// Its path without a fixed query or a fragment.
        package var path: String
    }

    /// The HTTP methods a path item may hold, in OpenAPI's order (`query` since 3.2).
    package static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// The schema mapper and the warnings, which every step of mapping an operation shares;
    /// read back when done.
    package var context: OpenAPIOperationContext
    /// The document's path.
    package let file: String
    /// Operations mapped, in document order.
    private(set) var operations: [Operation] = []
    /// The names of every operation present, mapped or left out, for rules that name them.
    private(set) var names: [String] = []
    /// Every operation present, mapped or left out, as a selection sees it.
    private(set) var present: [Presence] = []
    /// Every tag operations carry, mapped or left out, each once, in document order.
    private(set) var tags: [String] = []
    /// The URL of the document's first server as written, which the client's base URL stands
    /// for; an operation's own servers are resolved against it and compared with it.
    package var documentServer: String?

    /// - Parameters:
    ///   - schemas: the schema mapper, shared with the components.
    ///   - file: the document's path.
    package init(schemas: OpenAPISchemas, file: String) {
        context = OpenAPIOperationContext(schemas: schemas)
        self.file = file
    }

    /// Maps every operation of every path item, or only those whose `Presence.key` is in `only`;
    /// `wholeNames` are the names of every operation of the document when only some are mapped,
    /// so an event stream's method keeps the name it has when everything is.
    package mutating func map(paths: JSONNode, only: Set<String>? = nil, wholeNames: [String] = []) {
        for pathMember in paths.members ?? [] {
            guard let item = context.schemas.references.resolve(pathMember.value, in: file, otherwise: "the operations of \(quoted(pathMember.key)) are left out")
            else { continue }
            let shared = (item.node["parameters"]?.value.elements ?? []).map { (node: $0, file: item.file) }
            // OpenAPI 3.2's `additionalOperations` name other methods as they are sent (`LINK`).
            let additional = item.node["additionalOperations"]?.value.members ?? []
            let written = (item.node.members ?? []).filter { Self.methods.contains($0.key) }.map { (member: $0, isAdditional: false) }
                + additional.map { (member: $0, isAdditional: true) }
            for (written, isAdditional) in written {
                let key = written.key + " " + pathMember.key
                if let only, !only.contains(key) { continue }
                // An operation may itself be a `$ref` (to another file, as DigitalOcean's are):
                // what it points to is read there, its own `$ref`s relative to that file.
                guard
                    let target = context.schemas.references.resolve(
                        written.value, in: item.file, otherwise: "operation \(written.key.uppercased()) \(quoted(pathMember.key)) is left out")
                else {
                    let name = Self.derivedName(written.key, pathMember.key)
                    names.append(name)
                    present.append(Presence(key: key, name: name, tags: [], path: Self.pathParts(pathMember.key).path))
                    continue
                }
                let member = JSONMember(key: written.key, keyLocation: written.keyLocation, value: target.node)
                // A fixed query (`/responses?beta=true`) is sent with every call; a fragment
                // (`/folders/{id}#get_shared_link`) never is, but names an operation without an id.
                let parts = Self.pathParts(pathMember.key)
                let name = member.value["operationId"]?.value.stringValue
                    ?? Self.derivedName(member.key, parts.path) + (parts.fragment.map(SwiftNaming.typeName) ?? "")
                names.append(name)
                let tags = member.value["tags"]?.value.elements?.compactMap(\.stringValue) ?? []
                present.append(Presence(key: key, name: name, tags: tags, path: parts.path))
                for tag in tags where !self.tags.contains(tag) { self.tags.append(tag) }
                let path = JSONMember(key: parts.path, keyLocation: pathMember.keyLocation, value: pathMember.value)
                if var endpoint = endpoint(
                    name: name, method: member, path: path, shared: shared, file: target.file, isAdditional: isAdditional,
                    pathServers: item.node["servers"])
                {
                    endpoint.fixedQuery = parts.query
                    operations.append(Operation(endpoint: endpoint, node: member.value, tags: tags))
                    if let events = OpenAPIEventStreams.endpoint(
                        of: endpoint, responses: member.value["responses"]?.value, file: target.file, context: &context)
                    {
                        operations.append(Operation(endpoint: events, node: member.value, tags: tags, streamOf: name))
                    }
                }
            }
        }
        OpenAPIEventStreams.nameEventStreams(&operations, names: wholeNames + names)
    }

    /// A path key without its fragment (`#…`) and its fixed query (`?beta=true`), the
    /// query's items, percent-decoded, and the fragment.
    package static func pathParts(_ key: String) -> (path: String, query: [FixedQueryItem], fragment: String?) {
        let halves = key.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let withoutFragment = halves[0]
        let fragment = halves.count > 1 && !SwiftNaming.isNameless(halves[1]) ? halves[1] : nil
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (withoutFragment, [], fragment) }
        let items = withoutFragment[withoutFragment.index(after: mark)...].split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { text in
                String(text).removingPercentEncoding ?? String(text)
            }
            return FixedQueryItem(name: pair[0], value: pair.count > 1 ? pair[1] : "")
        }
        return (String(withoutFragment[..<mark]), items, fragment)
    }

    /// `get /pets/{id}` → `getPetsById`, for operations without an `operationId`.
    package static func derivedName(_ method: String, _ path: String) -> String {
        var name = method.lowercased()
        for segment in path.split(separator: "/") {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                name += "By" + SwiftNaming.typeName(String(segment.dropFirst().dropLast()))
            } else {
                name += SwiftNaming.typeName(String(segment))
            }
        }
        return name == method.lowercased() ? name + "Root" : name
    }

    /// One operation as an endpoint; `nil` when it is left out.
    private mutating func endpoint(
        name: String, method: JSONMember, path: JSONMember, shared: [(node: JSONNode, file: String)], file: String,
        isAdditional: Bool = false, pathServers: JSONMember? = nil
    )
        -> EndpointSpec?
    {
        let operation = method.value
        let nameNode = operation["operationId"]?.value
        let nameLocation = nameNode?.location ?? method.keyLocation
        let what = "operation \(quoted(name))"
        // A fixed field's method is its key upper-cased; an additional operation's is its key
        // as written, since methods are case-sensitive.
        let upper = isAdditional ? method.key : method.key.uppercased()
        if upper.uppercased() == "TRACE" {
            context.leaveOut(what, "cachegen does not call TRACE", at: method.keyLocation)
            return nil
        }
        if isAdditional, let reason = Self.unsendable(method: upper) {
            context.leaveOut(what, "the runtime cannot send the method \(quoted(upper)): \(reason)", at: method.keyLocation)
            return nil
        }
        if let callbacks = operation["callbacks"] {
            context.diagnostics.append(
                .warning(
                    "callbacks of \(what) are left out: they are requests the server makes, not calls the app makes",
                    at: callbacks.keyLocation))
        }
        guard
            var parameters = OpenAPIParameters.read(
                of: operation, shared: shared, path: path, what: what, name: name, file: file, context: &context)
        else {
            return nil
        }
        parameters.sort { Self.order($0.place) < Self.order($1.place) }
        var body: OpenAPIRequestBodies.RequestBody?
        if let request = operation["requestBody"] {
            guard
                let mapped = OpenAPIRequestBodies.read(
                    request, what: what, hint: SwiftNaming.typeName(name) + "Request", method: upper, file: file, context: &context)
            else { return nil }
            body = mapped.body
        }
        let responses = operation["responses"]?.value
        guard
            let response = OpenAPIResponses.read(
                responses, what: what, hint: SwiftNaming.typeName(name) + "Response", method: upper, file: file, context: &context)
        else { return nil }
        var reading = OpenAPIResponses.reading(responses, file: file, context: &context)
        // A multipart response without an object of parts is read as its bytes (warned).
        if reading.format == .multipart, response.type == nil { reading.format = .data }
        let description = [operation["summary"], operation["description"]]
            .compactMap { $0?.value.stringValue?.trimmingWhitespaceAndNewlines() }
            .filter { !$0.isEmpty }.joined(separator: "\n\n")
        var endpoint = EndpointSpec(
            name: Named(name: name, location: nameLocation), method: upper, methodLocation: method.keyLocation,
            path: path.key, pathLocation: path.keyLocation, parameters: parameters, body: body?.type,
            bodyLocation: body?.location, response: response.type, responseLocation: response.location,
            description: description.isEmpty ? nil : description, cache: nil, responseFormat: reading.format,
            accept: reading.accept)
        endpoint.bodyEncoding = body?.encoding ?? .json
        endpoint.methodIsExtension = !SpecValidator.methods.contains(upper)
        endpoint.server = OpenAPIServers.server(
            of: operation, pathServers: pathServers, documentServer: documentServer, what: what, context: &context)
        return endpoint
    }

    /// Why the runtime cannot send an additional operation's method, or `nil` when it can:
    /// URLSession sends any RFC 9110 token as the method, but not CONNECT, which opens a tunnel.
    package static func unsendable(method: String) -> String? {
        let token = "!#$%&'*+-.^_`|~"
        guard !method.isEmpty, method.unicodeScalars.allSatisfy({ $0.isASCII && (($0.properties.isAlphabetic) || ("0"..."9").contains($0) || token.unicodeScalars.contains($0)) })
        else { return "it is not an HTTP method name (RFC 9110 allows letters, digits and !#$%&'*+-.^_`|~)" }
        if method.uppercased() == "CONNECT" { return "CONNECT opens a tunnel, which URLSession does not do" }
        return nil
    }

    /// Path, then query, then header parameters, as `EndpointSpec` keeps them.
    private static func order(_ place: ParameterPlace) -> Int {
        switch place {
        case .path: 0
        case .query: 1
        case .header: 2
        }
    }
}
