#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
final class OpenAPIReferences {
    /// A node a reference led to, with the file it is in and a key naming it uniquely.
    struct Target {
        /// The node referred to, never itself a `$ref`.
        var node: JSONNode
        /// The file the node is in, as locations name it.
        var file: String
        /// `file#pointer`, the same for every `$ref` that leads here.
        var key: String
        /// The last segment of the pointer, or the file's name without extension.
        var name: String
    }

    /// The most `$ref`s followed in a chain before it counts as a cycle.
    static let maximumHops = 64

    /// Files read so far, by path.
    private var documents: [String: JSONNode]
    /// The folders of the document's path, which every file a `$ref` names must be under.
    private let folder: [Substring]
    /// Why each `$ref` text from each file that led nowhere failed, so a failure is worked
    /// out once.
    private var failures: [String: Failure] = [:]
    /// The `$ref`s warned about, so each is warned about once.
    private var warned: Set<SourceLocation> = []
    /// Reads a file by path.
    private let read: @Sendable (String) -> Data?
    /// Where each `$ref` text led from each file: a document refers to a few schemas
    /// many times, and walking a pointer scans every member of `components.schemas`.
    private var followed: [String: (node: JSONNode, file: String, key: String, name: String)] = [:]
    /// Warnings about references that led nowhere, each at the `$ref` that failed.
    private(set) var diagnostics: [Diagnostic] = []

    /// Why a `$ref` led nowhere, and what the user can do about it.
    private struct Failure: Error {
        var message: String
        var hint: String? = nil

        /// The warning's text: why, what is done instead, and the hint.
        func text(otherwise: String) -> String {
            message + ", so " + otherwise + (hint.map { "; " + $0 } ?? "")
        }
    }

    /// - Parameters:
    ///   - root: the document, already read.
    ///   - file: its path, as locations name it; other files are found next to it.
    ///   - read: reads another file's bytes, `nil` when it cannot.
    init(root: JSONNode, file: String, read: @escaping @Sendable (String) -> Data?) {
        documents = [file: root]
        folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().filter { $0 != "." }
        self.read = read
    }

    /// The `$ref` text of `node` when it is a reference object.
    static func reference(of node: JSONNode) -> JSONMember? {
        guard let member = node["$ref"], member.value.stringValue != nil else { return nil }
        return member
    }

    /// `node` itself when it is no reference, else what its chain of `$ref`s leads to;
    /// `nil` when the chain is broken or circular. Then, when `otherwise` says what the
    /// caller does instead ("it is read as any JSON"), a warning at the `$ref` says both;
    /// without it the lookup is silent (a use elsewhere warns).
    func resolve(_ node: JSONNode, in file: String, otherwise: String? = nil) -> Target? {
        var current = (node: node, file: file, key: file + "#", name: "")
        var hops = 0
        while let member = Self.reference(of: current.node), let text = member.value.stringValue {
            hops += 1
            do throws(Failure) {
                current = try step(text, from: current.file, hops: hops)
            } catch {
                if let otherwise, warned.insert(member.value.location).inserted {
                    diagnostics.append(.warning(error.text(otherwise: otherwise), at: member.value.location))
                }
                return nil
            }
        }
        return Target(node: current.node, file: current.file, key: current.key, name: current.name)
    }

    /// The step of a chain that `text` makes from `file`, each worked out once.
    private func step(_ text: String, from file: String, hops: Int) throws(Failure)
        -> (node: JSONNode, file: String, key: String, name: String)
    {
        guard hops <= Self.maximumHops else {
            throw Failure(message: "$ref \(quoted(text)) refers to itself (it leads through more than \(Self.maximumHops) references)")
        }
        let cacheKey = file + "\u{0}" + text
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
        let hash = text.firstIndex(of: "#")
        let filePart = String(hash.map { text[..<$0] } ?? text[...])
        let pointer = hash.map { String(text[text.index(after: $0)...]) } ?? ""
        if filePart.contains("://") {
            throw Failure(message: "$ref \(quoted(text)) points to another server", hint: "cachegen reads only files next to the document")
        }
        let targetFile = filePart.isEmpty ? file : Self.path(filePart, nextTo: file)
        guard filePart.isEmpty || isInsideFolder(targetFile) else {
            throw Failure(
                message: "$ref \(quoted(text)) names a file outside the document's folder",
                hint: "cachegen reads only files in that folder and the folders under it")
        }
        let root = try document(targetFile, named: filePart)
        var node = root
        var name = Self.baseName(filePart)
        let segments = Self.segments(pointer)
        for segment in segments {
            let child: JSONNode?
            switch node.value {
            case .object: child = node[segment]?.value
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
        }
        let key = targetFile + "#" + segments.map { "/" + OpenAPISchemas.escaped($0) }.joined()
        return (node, targetFile, key, name)
    }

    /// Whether `path` is in the document's folder or a folder under it, so a `$ref` never
    /// makes cachegen read a file elsewhere on the machine.
    private func isInsideFolder(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).filter { $0 != "." }
        guard !parts.contains(".."), parts.count > folder.count, !folder.isEmpty || !path.hasPrefix("/") else { return false }
        return Array(parts.prefix(folder.count)) == folder
    }

    /// The parsed file, read on first use (a failure is kept with each `$ref` text, so a file
    /// is read once either way).
    private func document(_ file: String, named written: String) throws(Failure) -> JSONNode {
        if let root = documents[file] { return root }
        guard let data = read(file) else {
            throw Failure(message: "cannot read \(quoted(written)), which a $ref names", hint: "put it next to the document")
        }
        do {
            let root = try OpenAPISource.parse(data, file: file)
            documents[file] = root
            return root
        } catch {
            throw Failure(message: "cannot read \(quoted(written)), which a $ref names", hint: "\(error.location): \(error.message)")
        }
    }

    /// The pointer's segments, unescaped (`~1` is `/`, `~0` is `~`, `%20` a space).
    static func segments(_ pointer: String) -> [String] {
        if !pointer.contains(where: { $0 == "~" || $0 == "%" }) {
            return pointer.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        }
        return pointer.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            let text = String(segment).removingPercentEncoding ?? String(segment)
            return text.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// `relative` next to `file`: in the same folder, `..` and `.` resolved.
    static func path(_ relative: String, nextTo file: String) -> String {
        if relative.hasPrefix("/") { return relative }
        var parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for part in relative.split(separator: "/").map(String.init) {
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
    static func baseName(_ file: String) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

}
