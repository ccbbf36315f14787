#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Follows `$ref`s: local ones (`#/components/schemas/Pet`) and ones into files next to
/// the document (`common.yaml#/Pet`, `Pet.yaml`), each file read once.
///
/// Chains of references are followed without recursion and end after a fixed number of
/// hops, so a cycle of `$ref`s is an error, never a hang.
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
    /// Files that could not be read, so each is reported once.
    private var unreadable: Set<String> = []
    /// Reads a file by path.
    private let read: @Sendable (String) -> Data?
    /// Where each `$ref` text led from each file: a document refers to a few schemas
    /// many times, and walking a pointer scans every member of `components.schemas`.
    private var followed: [String: (node: JSONNode, file: String, key: String, name: String)] = [:]
    /// Errors found while following references, each at the `$ref` that failed.
    private(set) var diagnostics: [Diagnostic] = []

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
    /// `nil` (with an error) when the chain is broken or circular.
    func resolve(_ node: JSONNode, in file: String) -> Target? {
        var current = (node: node, file: file, key: file + "#", name: "")
        var hops = 0
        while let member = Self.reference(of: current.node), let text = member.value.stringValue {
            hops += 1
            guard hops <= Self.maximumHops else {
                report("$ref \(quoted(text)) leads through more than \(Self.maximumHops) references; it refers to itself", at: member.value.location)
                return nil
            }
            let cacheKey = current.file + "\u{0}" + text
            if let known = followed[cacheKey] {
                current = known
                continue
            }
            guard let next = follow(text, from: current.file, at: member.value.location) else { return nil }
            followed[cacheKey] = next
            current = next
        }
        return Target(node: current.node, file: current.file, key: current.key, name: current.name)
    }

    /// One step: the node a `$ref` text names, which may itself be a reference.
    private func follow(_ text: String, from file: String, at location: SourceLocation)
        -> (node: JSONNode, file: String, key: String, name: String)?
    {
        let hash = text.firstIndex(of: "#")
        let filePart = String(hash.map { text[..<$0] } ?? text[...])
        let pointer = hash.map { String(text[text.index(after: $0)...]) } ?? ""
        if filePart.contains("://") {
            // Not the document's fault: what uses it is left out, with this warning.
            diagnostics.append(
                .warning(
                    "$ref \(quoted(text)) is left out: it points to another server; cachegen reads only files next to the document",
                    at: location))
            return nil
        }
        let targetFile = filePart.isEmpty ? file : Self.path(filePart, nextTo: file)
        guard filePart.isEmpty || isInsideFolder(targetFile) else {
            report(
                "$ref \(quoted(text)) names a file outside the document's folder; cachegen reads only files in that folder and the folders under it",
                at: location)
            return nil
        }
        guard let root = document(targetFile, named: filePart, at: location) else { return nil }
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
                var message = "$ref \(quoted(text)) points to nothing: \(quoted(segment)) is not there"
                if let keys = node.members?.map(\.key), let match = Suggestion.closest(to: segment, in: keys) {
                    message += "; did you mean \(quoted(match))?"
                }
                report(message, at: location)
                return nil
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

    /// The parsed file, read on first use.
    private func document(_ file: String, named written: String, at location: SourceLocation) -> JSONNode? {
        if let root = documents[file] { return root }
        guard !unreadable.contains(file) else { return nil }
        guard let data = read(file) else {
            unreadable.insert(file)
            report("cannot read \(quoted(written)), which a $ref names; put it next to the document", at: location)
            return nil
        }
        do {
            let root = try OpenAPISource.parse(data, file: file)
            documents[file] = root
            return root
        } catch {
            unreadable.insert(file)
            diagnostics.append(error)
            return nil
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

    /// An error at a `$ref`.
    private func report(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }
}
