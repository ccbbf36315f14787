#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// The OpenAPI front stage: an OpenAPI 3.0/3.1/3.2 or Swagger 2.0 document (and optionally an overlay with
/// cache rules) into the same `Spec` that a cachegen spec becomes, so validation,
/// translation, rendering, naming and fingerprints are shared.
///
/// Operations become endpoints grouped into one repository per first tag (untagged ones
/// into a repository named after `info.title`); schemas become models.
package enum OpenAPIFrontStage {
    /// What one run made.
    package struct Result {
        /// The spec, or `nil` when the input could not be read at all.
        package var spec: Spec?
        /// Errors and warnings, duplicates removed.
        package var diagnostics: [Diagnostic]
        /// Operations in the document, and operations generated.
        package var operationsPresent = 0
        /// Operations generated (not left out).
        package var operationsGenerated = 0
    }

    /// Reads the document an overlay names, then maps it with the overlay's rules.
    package static func spec(overlay: JSONNode, file: String, read: @escaping @Sendable (String) -> Data?) -> Result {
        guard let member = overlay["openapi"], let relative = member.value.stringValue, !relative.isEmpty else {
            let location = overlay["openapi"]?.value.location ?? overlay.location
            return Result(
                spec: nil,
                diagnostics: [.error("\"openapi\" must name the OpenAPI document, such as \"openapi.yaml\", relative to this file", at: location)])
        }
        let path = OpenAPIReferences.path(relative, nextTo: file)
        guard let data = read(path) else {
            return Result(
                spec: nil,
                diagnostics: [.error("cannot read the OpenAPI document \(quoted(relative)); the path is relative to this file", at: member.value.location)])
        }
        let document: JSONNode
        do {
            document = try OpenAPISource.parse(data, file: path)
        } catch {
            return Result(spec: nil, diagnostics: [error])
        }
        return spec(document: document, file: path, overlay: overlay, read: read)
    }

    /// What an overlay's `include`/`exclude` chose, found by mapping the whole document once.
    package struct Narrowing {
        /// The chosen operations, as `OpenAPIOperations.Presence.key`s.
        package var keys: Set<String>
        /// Every operation's name in the document.
        package var names: [String]
        /// The names of the operations not chosen.
        package var unchosen: Set<String>
        /// What reading and resolving the selection reported.
        package var selectionDiagnostics: [Diagnostic]
    }

    /// Maps a document; `overlay` adds cache rules. When the overlay's `include`/`exclude`
    /// choose some operations, the document is mapped again with only those (and the schemas
    /// they reach), so what is not chosen is neither checked nor warned about and never blocks.
    package static func spec(document root: JSONNode, file: String, overlay: JSONNode? = nil, read: @escaping @Sendable (String) -> Data?)
        -> Result
    {
        // Swagger 2.0 is read as the OpenAPI 3.0 tree it says (`Swagger2Document`).
        var root = root
        var conversion: Swagger2Document.Conversion?
        if Swagger2Document.isSwagger(root), root.members != nil {
            if let problem = Swagger2Document.versionProblem(root) { return Result(spec: nil, diagnostics: [problem]) }
            conversion = Swagger2Document.converted(root, file: file, read: read)
            root = conversion?.document ?? root
        }
        var whole = map(document: root, file: file, overlay: overlay, read: read, narrowing: nil, swagger2: conversion)
        guard let narrowing = whole.narrowing else {
            whole.result.diagnostics = Self.joined(conversion?.diagnostics(only: nil), whole.result.diagnostics)
            return whole.result
        }
        var narrowed = map(document: root, file: file, overlay: overlay, read: read, narrowing: narrowing, swagger2: conversion).result
        narrowed.operationsPresent = whole.result.operationsPresent
        // What converting the operations not chosen found is not reported, as their mapping is not.
        narrowed.diagnostics = Self.joined(conversion?.diagnostics(only: narrowing.keys), narrowed.diagnostics)
        return narrowed
    }

    /// What converting a Swagger 2.0 document reported, then the mapping's, duplicates removed.
    private static func joined(_ converted: [Diagnostic]?, _ mapped: [Diagnostic]) -> [Diagnostic] {
        guard let converted else { return mapped }
        var seen: Set<Diagnostic> = []
        return (converted + mapped).filter { seen.insert($0).inserted }
    }

    /// One mapping of the document: the whole of it (`narrowing` nil), which also says what
    /// a selection chose, or only the chosen operations. `swagger2`: the conversion `root` is
    /// made by, whose 2.0 document is the one the keyword walk checks.
    private static func map(
        document root: JSONNode, file: String, overlay: JSONNode?, read: @escaping @Sendable (String) -> Data?, narrowing: Narrowing?,
        swagger2: Swagger2Document.Conversion? = nil
    ) -> (result: Result, narrowing: Narrowing?) {
        guard root.members != nil else {
            return (Result(spec: nil, diagnostics: [.error("an OpenAPI document must be an object; found \(root.kindName)", at: root.location)]), nil)
        }
        if let version = versionProblem(root) { return (Result(spec: nil, diagnostics: [version]), nil) }
        var rules = OpenAPICacheRules()
        rules.read(overlay: overlay, document: root)
        let references = OpenAPIReferences(root: root, file: file, read: read)
        if let swagger2 {
            references.convertsSwagger2 = true
            references.writtenReferences = swagger2.writtenReferences
        }
        var schemas = OpenAPISchemas(references: references, prefix: rules.typePrefix)
        if let overlay { schemas.names.read(overlay: overlay) }
        // Narrowed, only the schemas the chosen operations reach are named, as they are reached.
        let components = narrowing == nil ? root["components"]?.value["schemas"]?.value.members ?? [] : []
        for member in components { schemas.declareComponent(member, in: file) }
        for member in components { schemas.checkComponent(member, in: file) }
        var diagnostics: [Diagnostic] = []
        var mapper = OpenAPIOperations(schemas: schemas, file: file)
        mapper.documentServer = root["servers"]?.value.elements?.first?["url"]?.value.stringValue
        if let paths = root["paths"]?.value { mapper.map(paths: paths, only: narrowing?.keys, wholeNames: narrowing?.names ?? []) }
        if narrowing == nil, let webhooks = root["webhooks"] {
            diagnostics.append(
                .warning("\"webhooks\" are left out: they are requests the server makes, not calls the app makes", at: webhooks.keyLocation))
        }
        schemas = mapper.context.schemas
        let models = schemas.finishModels()
        let index = ModelIndex(Spec(file: file, version: 1, baseURL: nil, defaults: .standard, models: models, repositories: []))
        var operations = OpenAPIParameters.textParameters(mapper.operations, models: index, diagnostics: &diagnostics)
        OpenAPIEventStreams.streamFlags(&operations, models: index)

        var selection = OpenAPISelection()
        var chosen = Selection()
        var selectionDiagnostics = narrowing?.selectionDiagnostics ?? []
        if let overlay {
            let documentName = OpenAPIReferences.baseName(file) + fileExtension(file)
            let generated = Set(operations.map(\.endpoint.name.name)).union(narrowing?.unchosen ?? [])
            rules.checkNames(narrowing?.names ?? mapper.names, generated: generated, documentName: documentName)
            if narrowing == nil {
                selection.read(overlay: overlay)
                var tags = root["tags"]?.value.elements?.compactMap { $0["name"]?.value.stringValue } ?? []
                tags += mapper.tags.filter { !tags.contains($0) }
                chosen = selection.resolve(
                    operations, names: mapper.names, tags: tags, paths: mapper.present.map(\.path), documentName: documentName)
                selectionDiagnostics = selection.diagnostics
            }
        }
        // An operation's event stream takes none of its rules but `channel`: it is never cached.
        let streamed = Set(operations.compactMap(\.streamOf))
        for index in operations.indices {
            if let name = operations[index].streamOf {
                rules.applyChannel(to: &operations[index].endpoint, of: name, operation: operations[index].node)
            } else {
                let name = operations[index].endpoint.name.name
                rules.apply(to: &operations[index].endpoint, operation: operations[index].node, hasEventStream: streamed.contains(name))
            }
        }
        var repositories = group(
            operations, root: root, prefix: rules.typePrefix, taken: Set(models.map { SwiftNaming.typeName($0.name.name) }))
        for index in repositories.indices {
            distinctMethods(&repositories[index].endpoints, names: &schemas.names, diagnostics: &diagnostics)
        }
        if overlay != nil {
            schemas.names.checkUnused(documentName: OpenAPIReferences.baseName(file) + fileExtension(file))
        }
        if mapper.names.isEmpty {
            diagnostics.append(
                .warning("the document has no operations to generate a client from; only its schemas become models", at: root.location))
        }
        var spec = Spec(
            file: file, version: 1, baseURL: baseURL(root),
            defaults: Defaults(cache: rules.defaults, jsonKeys: .exact, dates: .iso8601), models: models,
            repositories: repositories, selection: chosen)
        spec.constructs = rules.constructs
        var seen: Set<Diagnostic> = []
        // Every key the reader does not map where it matters, and every unknown key: in a
        // Swagger 2.0 document as the user wrote it, by 2.0's tables (its converted tree holds
        // only keys those tables know, so it is not walked again).
        let keywords =
            if let swagger2 {
                OpenAPIKeywordWalk(keywords: .v2).warnings(swagger2.original, file: file, references: swagger2.references, operations: narrowing?.keys)
            } else {
                OpenAPIKeywordWalk().warnings(root, file: file, references: references, operations: narrowing?.keys)
            }
        let stages: [[Diagnostic]] = [
            references.diagnostics, schemas.diagnostics, mapper.context.diagnostics, diagnostics, rules.diagnostics,
            selectionDiagnostics, schemas.names.diagnostics, keywords,
        ]
        let all = stages.joined().filter { seen.insert($0).inserted }
        let result = Result(
            spec: spec, diagnostics: all, operationsPresent: mapper.names.count,
            operationsGenerated: repositories.reduce(0) { $0 + $1.endpoints.count } - operations.count { $0.streamOf != nil })
        // Narrowing is worth a second pass when the selection is sound and chooses something;
        // otherwise the validator reports a selection that leaves nothing.
        guard narrowing == nil, !chosen.selectsEverything, !selection.diagnostics.contains(where: { $0.severity == .error }),
            !spec.selected().repositories.isEmpty
        else { return (result, nil) }
        let keys = Set(mapper.present.filter { selection.selects($0) }.map(\.key))
        let unchosen = Set(mapper.present.filter { !keys.contains($0.key) }.map(\.name))
        return (result, Narrowing(keys: keys, names: mapper.names, unchosen: unchosen, selectionDiagnostics: selection.diagnostics))
    }

    /// A located error for versions other than 3.x (Swagger's are `Swagger2Document`'s).
    private static func versionProblem(_ root: JSONNode) -> Diagnostic? {
        guard let member = root["openapi"] else { return nil }
        let text = member.value.stringValue ?? member.value.numberText ?? ""
        guard text.hasPrefix("3.") else {
            return .error("unsupported OpenAPI version \(quoted(text)); cachegen reads 3.0, 3.1 and 3.2", at: member.value.location)
        }
        return nil
    }

    /// One repository per first tag, in order of first appearance; untagged operations go
    /// into one named after `info.title`. A tag the document gives a `kind` other than `nav`
    /// (OpenAPI 3.2: a `badge`, an `audience`) marks operations without grouping them; a
    /// tag's description, else its summary, documents its repository.
    private static func group(_ operations: [OpenAPIOperations.Operation], root: JSONNode, prefix: String, taken: Set<String>)
        -> [Repository]
    {
        let tags = root["tags"]?.value.elements ?? []
        let marks = Set(
            tags.filter { ($0["kind"]?.value.stringValue).map { $0 != "nav" } ?? false }.compactMap { $0["name"]?.value.stringValue })
        var order: [String?] = []
        var byTag: [String: [OpenAPIOperations.Operation]] = [:]
        for operation in operations {
            let tag = operation.tags.first { !marks.contains($0) }
            let key = tag ?? ""
            if byTag[key] == nil { order.append(tag) }
            byTag[key, default: []].append(operation)
        }
        let title = root["info"]?.value["title"]?.value.stringValue ?? "API"
        var used = taken
        return order.map { tag in
            let members = byTag[tag ?? ""] ?? []
            var base = SwiftNaming.typeName(tag ?? title)
            if SwiftNaming.isNameless(base) { base = "API" }
            if !base.hasSuffix("Repository") { base += "Repository" }
            base = prefix + base
            var name = base
            var number = 2
            while used.contains(name) || used.contains("Live" + name) || used.contains("Mock" + name) {
                name = base + String(number)
                number += 1
            }
            used.insert(name)
            let description = tag.flatMap { tag in
                let object = tags.first { $0["name"]?.value.stringValue == tag }
                return (object?["description"] ?? object?["summary"])?.value.stringValue
            } ?? (tag == nil ? root["info"]?.value["description"]?.value.stringValue : nil)
            let trimmed = description?.trimmingWhitespaceAndNewlines()
            let location = members.first?.endpoint.name.location ?? root.location
            return Repository(
                name: Named(name: name, location: location), description: trimmed, endpoints: members.map(\.endpoint))
        }
    }

    /// Gives each endpoint of a repository a method name of its own: the overlay's when it
    /// gives one, else made from the operation's name (from its method and path when that
    /// has no letter or digit), shortened when long, and numbered when an earlier method
    /// (or its `…Stream` or `…Query`) took it, with a warning saying how to choose another.
    private static func distinctMethods(_ endpoints: inout [EndpointSpec], names: inout OpenAPINames, diagnostics: inout [Diagnostic]) {
        var taken: Set<String> = []
        for index in endpoints.indices {
            let endpoint = endpoints[index]
            let operation = endpoint.name.name
            // The message is made only when there is a warning.
            let what = { "operation \(quoted(operation))" }
            let advice = { OpenAPINames.advice(operation: operation) }
            var base = OpenAPINames.shortened(SwiftNaming.memberName(operation))
            var isArbitrary = false
            if let rename = names.renamed(operation: operation) {
                base = rename
            } else if SwiftNaming.isNameless(operation) {
                let path = endpoint.path.split(separator: "?").first.map(String.init) ?? endpoint.path
                base = OpenAPINames.shortened(OpenAPIOperations.derivedName(endpoint.method.lowercased(), path))
                isArbitrary = true
            }
            let hasForms = endpoint.cache != nil && endpoint.response != nil
            let forms = { (name: String) in hasForms ? [name, name + "Stream", name + "Query"] : [name] }
            let name = SwiftNaming.numbered(base) { forms($0).contains(where: taken.contains) }
            taken.formUnion(forms(name))
            if isArbitrary {
                diagnostics.append(
                    .warning("\(what()) has no letter or digit to make a Swift name from, so its method is \(name); \(advice())", at: endpoint.name.location))
            } else if name != base {
                diagnostics.append(
                    .warning("\(what()) becomes the method \(base) like an earlier operation, so it is \(name); \(advice())", at: endpoint.name.location))
            }
            if name != SwiftNaming.memberName(operation) { endpoints[index].swiftName = name }
        }
    }

    /// The first server's URL when it is absolute http or https.
    private static func baseURL(_ root: JSONNode) -> String? {
        guard let url = root["servers"]?.value.elements?.first?["url"]?.value.stringValue else { return nil }
        return (url.hasPrefix("https://") || url.hasPrefix("http://")) && !url.contains("{") ? url : nil
    }

    /// `.yaml` of `api.yaml`, for naming the document in messages.
    private static func fileExtension(_ file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return name.lastIndex(of: ".").map { String(name[$0...]) } ?? ""
    }
}
