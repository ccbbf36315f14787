#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheGenReading
import CacheGenSpec

/// Follows `$ref`s: local ones (`#/components/schemas/Pet`) and ones into files next to
/// the document (`common.yaml#/Pet`, `Pet.yaml`), each file read once.
///
/// Chains of references are followed without recursion and end after a fixed number of
/// hops, so a cycle of `$ref`s is a warning, never a hang.
///
/// A `$ref` that leads nowhere (a missing component, a file that is not there or not
/// readable, another server, a cycle) is the document's flaw, not the user's: it is a
/// warning at the `$ref` that says what the generator does instead, which the caller
/// names (`otherwise`), and the rest of the document is generated.
package final class OpenAPIReferences {
    /// A node a reference led to, with the file it is in and a key naming it uniquely.
    package struct Target {
        /// The node referred to, never itself a `$ref`.
        package var node: JSONNode
        /// The file the node is in, as locations name it.
        package var file: String
        /// `file#pointer`, the same for every `$ref` that leads here.
        package var key: String { pointerKey ?? file + "#" }
        /// The key of a node a `$ref` led to; `nil` for a node that is no reference, whose
        /// key (`file#`) is made only if asked for: most nodes resolved are no references.
        fileprivate var pointerKey: String?
        /// The last segment of the pointer, or the file's name without extension.
        package var name: String
    }

    /// The most `$ref`s followed in a chain before it counts as a cycle.
    package static let maximumHops = 64

    /// Whether the files `$ref`s name belong to a Swagger 2.0 document, and are read as
    /// `Swagger2Document.fragment` converts them.
    package var convertsSwagger2 = false
    /// The `$ref` texts the user wrote where a Swagger 2.0 document's were rewritten
    /// (`#/definitions/Pet` read as `#/components/schemas/Pet`), by the location of their
    /// value: a warning about one quotes the user's text.
    package var writtenReferences: [SourceLocation: String] = [:]
    /// Files read so far, by path.
    private(set) var documents: [String: JSONNode]
    /// The folders of the document's path, which every file a `$ref` names must be under.
    private let folder: [Substring]
    /// Why each `$ref` text from each file that led nowhere failed, so a failure is worked
    /// out once.
    private var failures: [FollowKey: Failure] = [:]
    /// The `$ref`s warned about, so each is warned about once.
    private var warned: Set<SourceLocation> = []
    /// Reads a file by path.
    package let read: @Sendable (String) -> Data?
    /// Where each `$ref` text led from each file: a document refers to a few schemas
    /// many times.
    private var followed: [FollowKey: (node: JSONNode, file: String, key: String, name: String)] = [:]
    /// The position of each member of the large objects pointers walk through
    /// (`components.schemas` holds hundreds), by the object's `file#pointer`, so a pointer
    /// finds its member by hash instead of comparing it with every key before it.
    private var memberIndexes: [String: [String: Int]] = [:]
    /// Objects with fewer members are searched in order.
    private static let indexedMemberCount = 16
    /// Where a file part of a `$ref` leads from a folder (`../models/Pet.yaml` from
    /// `spec/paths/`) and whether that is inside the document's folder, for ASCII paths: a
    /// document split over many files names the same few files from each of its folders.
    private var fileTargets: [FollowKey: (path: String, isInside: Bool)] = [:]
    /// Files read and parsed ahead, on all cores, before anything asks for them
    /// (`OpenAPIReferences+Prefetch.swift`); each is taken at its first use.
    package var prefetched: [String: Prefetched] = [:]
    /// The document's path: the file whose `components.schemas` recursive references lead into.
    package let rootFile: String
    /// Where each recursive reference of the document leads (`OpenAPIReferences+Recursive.swift`),
    /// by the location of its text; worked out when the first one is followed.
    package var recursiveTargets: [SourceLocation: String]?
    /// The document and its path, whose `$ref`s name the files read ahead: once the first
    /// `$ref` to another file is followed (a document in one file never pays for the walk).
    private var prefetchRoot: (node: JSONNode, file: String)?

    /// A `$ref` text (or its file part) as written in a file (or a folder).
    private struct FollowKey: Hashable {
        package var file: String
        package var text: String
    }
    /// Warnings about references that led nowhere, each at the `$ref` that failed.
    private(set) var diagnostics: [Diagnostic] = []

    /// Why a `$ref` led nowhere, and what the user can do about it.
    package struct Failure: Error {
        package var message: String
        package var hint: String? = nil

        /// The warning's text: why, what is done instead, and the hint.
        package func text(otherwise: String) -> String {
            message + ", so " + otherwise + (hint.map { "; " + $0 } ?? "")
        }

        /// The failure of a `$ref` the user wrote as `original`, which was followed rewritten
        /// as `rewritten` (a Swagger 2.0 `#/definitions/Pet` as `#/components/schemas/Pet`):
        /// its message quotes `original`, and a part of the pointer that only the rewriting
        /// made (`"components"`, `"schemas"`) is named as the user's (`"definitions"`), without
        /// a hint drawn from the rewritten tree.
        func quoting(_ original: String, for rewritten: String) -> Failure {
            var failure = self
            let (originalFile, originalPointer) = OpenAPIReferences.parts(of: original)
            let (rewrittenFile, rewrittenPointer) = OpenAPIReferences.parts(of: rewritten)
            failure.message = failure.message.replacingOccurrences(of: quoted(rewritten), with: quoted(original))
            if originalFile != rewrittenFile, !rewrittenFile.isEmpty {
                failure.message = failure.message.replacingOccurrences(of: quoted(rewrittenFile), with: quoted(originalFile))
            }
            let originalSegments = OpenAPIReferences.segments(originalPointer)
            let rewrittenSegments = OpenAPIReferences.segments(rewrittenPointer)
            let added = rewrittenSegments.count - originalSegments.count
            if added > 0, let first = originalSegments.first {
                for segment in rewrittenSegments.prefix(added + 1) where !originalSegments.contains(segment) {
                    let missing = "\(quoted(segment)) is not there"
                    if failure.message.hasSuffix(missing) {
                        failure.message = String(failure.message.dropLast(missing.count)) + "\(quoted(first)) is not there"
                        failure.hint = nil
                    }
                }
            }
            return failure
        }
    }

    /// - Parameters:
    ///   - root: the document, already read.
    ///   - file: its path, as locations name it; other files are found next to it.
    ///   - read: reads another file's bytes, `nil` when it cannot.
    package init(root: JSONNode, file: String, read: @escaping @Sendable (String) -> Data?) {
        documents = [file: root]
        rootFile = file
        folder = Self.pathParts(file, omittingEmpty: false).dropLast().filter { $0 != "." }
        self.read = read
        prefetchRoot = (root, file)
    }

    /// The `$ref` text of `node` when it is a reference object.
    /// A recursive reference (`$recursiveRef`, `$dynamicRef`) counts as one too; `resolve`
    /// finds where it leads.
    package static func reference(of node: JSONNode) -> JSONMember? {
        guard case .object(let members) = node.value else { return nil }
        var recursive: JSONMember?
        // One pass, looking only at keys that start with `$`: most nodes asked are no references.
        for member in members where member.key.utf8.first == UInt8(ascii: "$") && member.value.stringValue != nil {
            if member.key == "$ref" { return member }
            if recursive == nil, isRecursiveReference(member.key) { recursive = member }
        }
        return recursive
    }

    /// `node` itself when it is no reference, else what its chain of `$ref`s leads to;
    /// `nil` when the chain is broken or circular. Then, when `otherwise` says what the
    /// caller does instead ("it is read as any JSON"), a warning at the `$ref` says both;
    /// without it the lookup is silent (a use elsewhere warns).
    package func resolve(_ node: JSONNode, in file: String, otherwise: String? = nil) -> Target? {
        var current = (node: node, file: file, key: String?.none, name: "")
        var hops = 0
        while let member = Self.reference(of: current.node), let written = member.value.stringValue {
            hops += 1
            do throws(Failure) {
                let text = member.key == "$ref" ? written : try enclosingSchema(of: member)
                let next = try step(text, from: current.file, hops: hops)
                current = (next.node, next.file, next.key, next.name)
            } catch {
                if let otherwise, warned.insert(member.value.location).inserted {
                    var failure = error
                    if let original = writtenReferences[member.value.location], original != written {
                        failure = failure.quoting(original, for: written)
                    }
                    diagnostics.append(.warning(failure.text(otherwise: otherwise), at: member.value.location))
                }
                return nil
            }
        }
        return Target(node: current.node, file: current.file, pointerKey: current.key, name: current.name)
    }

    /// The step of a chain that `text` makes from `file`, each worked out once.
    private func step(_ text: String, from file: String, hops: Int) throws(Failure)
        -> (node: JSONNode, file: String, key: String, name: String)
    {
        guard hops <= Self.maximumHops else {
            throw Failure(message: "$ref \(quoted(text)) refers to itself (it leads through more than \(Self.maximumHops) references)")
        }
        let cacheKey = FollowKey(file: file, text: text)
        if let known = followed[cacheKey] { return known }
        if let failure = failures[cacheKey] { throw failure }
        do {
            let next = try follow(text, from: file)
            followed[cacheKey] = next
            return next
        } catch {
            failures[cacheKey] = error
            throw error
        }
    }

    /// One step: the node a `$ref` text names, which may itself be a reference.
    private func follow(_ text: String, from file: String) throws(Failure) -> (node: JSONNode, file: String, key: String, name: String) {
        let (filePart, pointer) = Self.parts(of: text)
        if filePart.contains("://") {
            throw Failure(message: "$ref \(quoted(text)) points to another server", hint: "cachegen reads only files next to the document")
        }
        let (targetFile, isInside) = filePart.isEmpty ? (file, true) : fileTarget(filePart, from: file)
        guard isInside else {
            throw Failure(
                message: "$ref \(quoted(text)) names a file outside the document's folder",
                hint: "cachegen reads only files in that folder and the folders under it")
        }
        let root = try document(targetFile, named: filePart)
        var node = root
        var name = Self.baseName(filePart)
        // `file#/a/b`: the key of the node reached so far, which names it in `memberIndexes`.
        var key = targetFile + "#"
        for segment in Self.segments(pointer) {
            let child: JSONNode?
            switch node.value {
            case .object(let members): child = member(segment, of: members, at: key)
            case .array(let items): child = Int(segment).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: child = nil
            }
            guard let child else {
                let match = node.members.flatMap { members in Suggestion.closest(to: segment, in: members.map(\.key)) }
                throw Failure(
                    message: "$ref \(quoted(text)) points to nothing: \(quoted(segment)) is not there",
                    hint: match.map { "did you mean \(quoted($0))?" })
            }
            node = child
            name = segment
            key += "/" + Self.escaped(segment)
        }
        return (node, targetFile, key, name)
    }

    /// The value of the member named `name` (the first, as `JSONNode`'s subscript finds it)
    /// of the object at `key`; large objects are indexed the first time a pointer walks them.
    private func member(_ name: String, of members: [JSONMember], at key: String) -> JSONNode? {
        guard members.count >= Self.indexedMemberCount else { return members.first { $0.key == name }?.value }
        if memberIndexes[key] == nil {
            var index: [String: Int] = [:]
            index.reserveCapacity(members.count)
            for (position, member) in members.enumerated() where index[member.key] == nil { index[member.key] = position }
            memberIndexes[key] = index
        }
        return memberIndexes[key]?[name].map { members[$0].value }
    }

    /// The file a `$ref`'s file part names from `file`, and whether it is inside the
    /// document's folder.
    package func fileTarget(_ filePart: String, from file: String) -> (path: String, isInside: Bool) {
        // The target depends on `file`'s folder only: `spec/paths/` of `spec/paths/pets.yaml`.
        let folderKey: String? =
            Self.isASCII(file) ? file.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(file[...$0]) } ?? "" : nil
        if let folderKey, let known = fileTargets[FollowKey(file: folderKey, text: filePart)] { return known }
        let path = Self.path(filePart, nextTo: file)
        let target = (path: path, isInside: isInsideFolder(path))
        if let folderKey { fileTargets[FollowKey(file: folderKey, text: filePart)] = target }
        return target
    }

    /// Whether `path` is in the document's folder or a folder under it, so a `$ref` never
    /// makes cachegen read a file elsewhere on the machine.
    private func isInsideFolder(_ path: String) -> Bool {
        let parts = Self.pathParts(path, omittingEmpty: false).filter { $0 != "." }
        guard !parts.contains(".."), parts.count > folder.count, !folder.isEmpty || !path.hasPrefix("/") else { return false }
        return Array(parts.prefix(folder.count)) == folder
    }

    /// The parsed file, read on first use (or taken from those read ahead, the same way); a
    /// failure is kept with each `$ref` text, so a file is read once either way.
    private func document(_ file: String, named written: String) throws(Failure) -> JSONNode {
        if let root = documents[file] { return root }
        if let root = prefetchRoot {
            prefetchRoot = nil
            prefetchFiles(referencedBy: root.node, in: root.file)
        }
        switch prefetched.removeValue(forKey: file) ?? Self.load(file, read: read) {
        case .parsed(let read):
            // A Swagger 2.0 document's files are read as 3.0, as the document is.
            let root = convertsSwagger2 ? Swagger2Document.fragment(read) : read
            if convertsSwagger2 { writtenReferences.merge(Swagger2Document.writtenReferences(in: read)) { first, _ in first } }
            documents[file] = root
            return root
        case .unreadable:
            throw Failure(message: "cannot read \(quoted(written)), which a $ref names", hint: "put it next to the document")
        case .failed(let error):
            throw Failure(message: "cannot read \(quoted(written)), which a $ref names", hint: "\(error.location): \(error.message)")
        }
    }

    /// What reading a file gave.
    package enum Prefetched: Sendable {
        /// Its nodes.
        case parsed(JSONNode)
        /// It could not be read.
        case unreadable
        /// It is not valid JSON or YAML: the reader's error.
        case failed(Diagnostic)
    }

    /// Reads and parses one file.
    package static func load(_ file: String, read: @Sendable (String) -> Data?) -> Prefetched {
        guard let data = read(file) else { return .unreadable }
        do {
            return .parsed(try OpenAPISource.parse(data, file: file))
        } catch {
            return .failed(error)
        }
    }

    /// A `$ref` text split at its first `#`: the file it names (empty for the same file) and
    /// the pointer after the `#` (empty when there is none).
    package static func parts(of text: String) -> (file: String, pointer: String) {
        let hash = isASCII(text) ? text.utf8.firstIndex(of: UInt8(ascii: "#")) : text.firstIndex(of: "#")
        let file = String(hash.map { text[..<$0] } ?? text[...])
        let pointer = hash.map { String(text[text.index(after: $0)...]) } ?? ""
        return (file, pointer)
    }

    /// A key as a JSON pointer segment (`/` as `~1`, `~` as `~0`).
    package static func escaped(_ key: String) -> String {
        // The usual key, ASCII with neither, is itself (checked on bytes, which is quicker).
        if key.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: "/") }) { return key }
        guard key.contains(where: { $0 == "~" || $0 == "/" }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The pointer's segments, unescaped (`~1` is `/`, `~0` is `~`, `%20` a space).
    package static func segments(_ pointer: String) -> [String] {
        // ASCII with nothing to unescape, the usual pointer: split on bytes.
        if pointer.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: "%") }) {
            return pointer.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
        }
        if !pointer.contains(where: { $0 == "~" || $0 == "%" }) {
            return pointer.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        }
        return pointer.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            let text = String(segment).removingPercentEncoding ?? String(segment)
            return text.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// `relative` next to `file`: in the same folder, `..` and `.` resolved.
    package static func path(_ relative: String, nextTo file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        var parts = pathParts(file, omittingEmpty: false).dropLast().map(String.init)
        for part in pathParts(relative, omittingEmpty: true).map(String.init) {
            if part == "." { continue }
            if part == "..", let last = parts.last, !last.isEmpty, last != "..", last != "." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// A file's name without folders and extension: `schemas/Pet.yaml` → `Pet`.
    package static func baseName(_ file: String) -> String {
        let name = pathParts(file, omittingEmpty: true).last.map(String.init) ?? file
        let dot = isASCII(name) ? name.utf8.lastIndex(of: UInt8(ascii: ".")) : name.lastIndex(of: ".")
        guard let dot, dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `text.split(separator: "/", omittingEmptySubsequences: omittingEmpty)`.
    ///
    /// Implementation note: a document split over many files has thousands of `$ref`s to
    /// other files, and splitting their paths by `Character` (grapheme by grapheme) cost more
    /// than reading the files. ASCII text, where every byte is a character, is split on bytes
    /// into the same pieces; other text still by `Character` (a `/` followed by a combining
    /// mark is one character, and no separator).
    package static func pathParts(_ text: String, omittingEmpty: Bool) -> [Substring] {
        let utf8 = text.utf8
        let parts = utf8.withContiguousStorageIfAvailable { bytes -> [Substring]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var parts: [Substring] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                if !omittingEmpty || index > start {
                    parts.append(text[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: index)])
                }
                start = index + 1
            }
            return parts
        }
        return (parts ?? nil) ?? text.split(separator: "/", omittingEmptySubsequences: omittingEmpty)
    }

    /// Whether every byte of `text` is ASCII, so that bytes and characters are the same.
    package static func isASCII(_ text: String) -> Bool {
        // On the string's own storage when it has one: walking the view byte by byte through
        // its iterator costs many times more.
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? text.utf8.allSatisfy { $0 < 0x80 }
    }
}
