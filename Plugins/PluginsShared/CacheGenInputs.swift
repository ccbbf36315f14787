import Foundation

/// What cachegen finds among a target's files, and what it writes for each spec: the one
/// place that decides it for the build plugin in a package, the build plugin in an Xcode
/// project and the command plugin, so all three treat the same files alike.
///
/// Plain Foundation, no `PackagePlugin`: plugins cannot link library targets, so this file
/// is shared by symlink (`PluginsShared/`) with each plugin and with `CacheGenPluginTests`,
/// which checks it on Linux against the generator's own `OutputLayout`.
struct CacheGenInputs: Sendable {
    /// Every `*.cachegen.json` (a spec, or an overlay naming an OpenAPI document), in the
    /// order the target lists them.
    let specs: [URL]
    /// OpenAPI documents that no overlay names: each gets a warning saying what to add.
    let documentsWithoutOverlay: [URL]

    /// Sorts a target's files (a package target's `sourceFiles`, an Xcode target's
    /// `inputFiles`) into specs and documents without an overlay.
    init(files: [URL]) {
        specs = files.filter { $0.lastPathComponent.hasSuffix(".cachegen.json") }
        let named = Set(specs.compactMap(Self.document(ofOverlay:)).map(\.path))
        documentsWithoutOverlay = files.filter { Self.isOpenAPIDocument($0) && !named.contains($0.standardizedFileURL.path) }
    }

    /// The warnings for a target, one line each: a document without an overlay says what to
    /// add, and a target with no spec at all says so (unless a document already explained it,
    /// or it is a test target that gets the mocks of the targets it tests).
    func warnings(targetName: String, plugin: String, testsOthers: Bool = false) -> [String] {
        let documents = documentsWithoutOverlay.map { document in
            "\(plugin) found the OpenAPI document \(document.lastPathComponent) in target '\(targetName)' but no overlay for it; add \(Self.overlayName(for: document)) with { \"openapi\": \"\(document.lastPathComponent)\" } next to it to generate a cached client"
        }
        guard specs.isEmpty, documents.isEmpty, !testsOthers else { return documents }
        return [
            "\(plugin) found no spec in target '\(targetName)'; add a file named Name.cachegen.json to its sources, or remove the plugin"
        ]
    }

    /// The files the generator reads for `spec`: the spec; for an overlay its document and
    /// the files the document's `$ref`s name (and theirs); for an OpenAPI document named as a
    /// spec, the files its own `$ref`s name. Editing any of them reruns the build command.
    static func inputFiles(for spec: URL) -> [URL] {
        let read = kind(of: spec)
        if let document = read.flatMap({ document(of: $0, spec: spec) }) { return [spec] + referencedFiles(from: document) }
        return read?.kind == .document ? referencedFiles(from: spec) : [spec]
    }

    /// `document` and every file its `$ref`s name, directly or through other files, that
    /// exists in its folder or a folder under it (the generator reads no other), each once.
    /// The text is scanned for `$ref` values, as YAML and JSON both write them, so no reader
    /// is needed here; a URL, a local pointer (`#/…`) or a missing file is skipped.
    static func referencedFiles(from document: URL) -> [URL] {
        let folder = document.deletingLastPathComponent().standardizedFileURL.path
        var found = [document.standardizedFileURL]
        var seen: Set<String> = [found[0].path]
        var next = 0
        while next < found.count, found.count < 10_000 {
            let file = found[next]
            next += 1
            guard let data = try? Data(contentsOf: file) else { continue }
            for reference in references(in: String(decoding: data, as: UTF8.self)) {
                let url = URL(fileURLWithPath: reference, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
                guard url.path.hasPrefix(folder + "/"), FileManager.default.fileExists(atPath: url.path),
                    seen.insert(url.path).inserted
                else { continue }
                found.append(url)
            }
        }
        return found
    }

    /// The file parts of the `$ref` values in a YAML or JSON text (`a.yaml` of `a.yaml#/B`).
    static func references(in text: String) -> [String] {
        var result: [String] = []
        var rest = text[...]
        let stops: Set<Character> = ["\"", "'", ",", "}", "]", "#", " ", "\n", "\r", "\t"]
        while let range = rest.range(of: "$ref") {
            rest = rest[range.upperBound...]
            var value = rest.drop { $0 == "\"" || $0 == "'" || $0 == " " || $0 == "\t" }
            guard value.first == ":" else { continue }
            value = value.dropFirst().drop { $0 == "\"" || $0 == "'" || $0 == " " || $0 == "\t" }
            let file = String(value.prefix { !stops.contains($0) })
            if !file.isEmpty, !file.contains("://") { result.append(file.removingPercentEncoding ?? file) }
        }
        return result
    }

    /// The document an overlay names (`"openapi": "api.yaml"`, relative to the overlay);
    /// `nil` for a spec or a document. Mirrors `Generator.documentPath(forOverlay:path:)`.
    static func document(ofOverlay spec: URL) -> URL? {
        kind(of: spec).flatMap { document(of: $0, spec: spec) }
    }

    /// The document an overlay names, from what `kind(of:)` read of `spec`.
    private static func document(of read: (kind: InputKind, openapi: String?), spec: URL) -> URL? {
        guard read.kind == .overlay, let relative = read.openapi, !relative.isEmpty else { return nil }
        return URL(fileURLWithPath: relative, relativeTo: spec.deletingLastPathComponent()).standardizedFileURL
    }

    /// A YAML or JSON file (not a spec) that `InputKind` calls a document: an OpenAPI 3.x or
    /// Swagger 2.0 one. Only a file whose first kilobyte names `openapi` or `swagger` is read
    /// whole, so a target's other resources cost one small read each.
    static func isOpenAPIDocument(_ file: URL) -> Bool {
        let name = file.lastPathComponent.lowercased()
        guard [".yaml", ".yml", ".json"].contains(where: name.hasSuffix), !name.hasSuffix(".cachegen.json"),
            let handle = try? FileHandle(forReadingFrom: file)
        else { return false }
        let head = String(decoding: (try? handle.read(upToCount: 1024)) ?? Data(), as: UTF8.self)
        try? handle.close()
        guard head.contains("openapi") || head.contains("swagger") else { return false }
        return kind(of: file)?.kind == .document
    }

    /// What `file` is, by `InputKind`'s rule, and its `openapi` text: from its root keys, parsed
    /// when it is JSON, and for YAML read from the lines that start a root key (`key: value`,
    /// as documents write them; the generator's reader decides the rest when it runs). `nil`
    /// when the file cannot be read or its root is no object.
    static func kind(of file: URL) -> (kind: InputKind, openapi: String?)? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        let keys: [String: String?]
        if data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            keys = root.mapValues { $0 as? String }
        } else {
            keys = yamlRootKeys(String(decoding: data, as: UTF8.self))
        }
        let kind = InputKind(
            openapi: keys["openapi"], hasSwagger: keys["swagger"] != nil, hasPaths: keys["paths"] != nil,
            hasInfo: keys["info"] != nil)
        return (kind, keys["openapi"] ?? nil)
    }

    /// The keys of a YAML text's root mapping with their values when those are strings on the
    /// key's line (quoted, or plain and not a number); `nil` for any other value.
    static func yamlRootKeys(_ text: String) -> [String: String?] {
        var keys: [String: String?] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let first = line.first, !" \t#-.[{".contains(first),
                let colon = line.firstIndex(where: { $0 == ":" }),
                line.index(after: colon) == line.endIndex || line[line.index(after: colon)] == " "
            else { continue }
            let key = unquoted(line[..<colon].trimmingCharacters(in: .whitespaces))
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let comment = value.range(of: " #") { value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces) }
            let bare = unquoted(value)
            let text: String? = bare != value ? bare : value.isEmpty || Double(value) != nil ? nil : value
            if keys.index(forKey: key) == nil { keys[key] = .some(text) }
        }
        return keys
    }

    /// `text` without the quotes around it, if it has them.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.first == "\"" || text.first == "'", text.last == text.first else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// `petstore.yaml` → `petstore.cachegen.json`.
    static func overlayName(for document: URL) -> String {
        document.deletingPathExtension().lastPathComponent + ".cachegen.json"
    }

    /// Files per kind for each size, smallest first (`OutputLayout.Size`): a spec's input of
    /// under 16 KB gets three files, under 64 KB eleven, else 41. Declarations are spread over
    /// a kind's files by a stable hash; the shapes share the repositories' file when they have
    /// none of their own.
    static let sizes = [
        ("small", [("Models", 1), ("Repositories", 1), ("Mocks", 1), ("Shapes", 0)]),
        ("medium", [("Models", 4), ("Repositories", 4), ("Mocks", 2), ("Shapes", 1)]),
        ("large", [("Models", 16), ("Repositories", 16), ("Mocks", 8), ("Shapes", 1)]),
    ]

    /// The size for input files of `bytes` bytes in all: `OutputLayout.Size(inputBytes:)`.
    static func size(inputBytes bytes: Int) -> String {
        bytes < 16 * 1024 ? "small" : bytes < 64 * 1024 ? "medium" : "large"
    }

    /// The size of `spec`'s output, from the bytes of its input files; the build command
    /// passes it to the tool (`--layout`), so the files named here are the files written.
    static func outputSize(for spec: URL) -> String {
        let bytes = inputFiles(for: spec).reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
        }
        return size(inputBytes: bytes)
    }

    /// Mirrors `OutputLayout(forSpec:size:mocks:).fileNames`: plugins cannot link library
    /// targets. `mocks` is `included`, `excluded` (no mock files) or `only` (only those).
    static func outputFileNames(for spec: URL, size: String, mocks: String = "included") -> [String] {
        var name = spec.lastPathComponent
        for suffix in [".json", ".yaml", ".yml", ".cachegen"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        let shards = (sizes.first { $0.0 == size }?.1 ?? []).filter { kind, _ in
            mocks == "excluded" ? kind != "Mocks" : mocks == "only" ? kind == "Mocks" : true
        }
        return shards.flatMap { kind, count in (0..<count).map { "\(name)+\(kind)\($0).cachegen.swift" } }
    }
}
