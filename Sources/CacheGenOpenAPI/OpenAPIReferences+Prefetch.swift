import CacheGenReading

/// Reading the files a document's `$ref`s name before they are followed, on all cores.
///
/// A document split over files (DigitalOcean's names about 1,500 of them) spends half its
/// time reading and parsing them one by one as the mapping reaches each `$ref`. When the
/// first file is needed, they are all found ahead instead, in rounds: the files the document
/// names, then the files those name, and so on, each round read and parsed on all cores. Nothing is reported here: a file is
/// taken at its first use exactly as if it were read then, so every message (a file that
/// cannot be read, a file that is not valid YAML) is the same, at the same `$ref`, in the
/// same order. A file named only where the mapping never looks is read for nothing; the
/// same rules as for following decide which files may be read at all.
extension OpenAPIReferences {
    /// Reads and parses every file `root` (in `file`) leads to through `$ref`s, in rounds.
    package func prefetchFiles(referencedBy root: JSONNode, in file: String) {
        var seen: Set<String> = [file]
        var round = files(namedBy: Self.referencedFileParts(in: root), in: file, seen: &seen)
        let read = self.read
        while !round.isEmpty {
            let files = round
            let loaded = Parallel.map(count: files.count) { index in
                let outcome = Self.load(files[index], read: read)
                guard case .parsed(let node) = outcome else { return (outcome, [String]()) }
                return (outcome, Self.referencedFileParts(in: node))
            }
            round = []
            for (file, (outcome, parts)) in zip(files, loaded) {
                prefetched[file] = outcome
                round += self.files(namedBy: parts, in: file, seen: &seen)
            }
        }
    }

    /// The files that `parts` (the file parts of `$ref`s in `file`) name and that may be
    /// read, each once over all rounds.
    private func files(namedBy parts: [String], in file: String, seen: inout Set<String>) -> [String] {
        var files: [String] = []
        for part in parts where !part.contains("://") {
            let target = fileTarget(part, from: file)
            if target.isInside, seen.insert(target.path).inserted { files.append(target.path) }
        }
        return files
    }

    /// The file part (before `#`) of every `$ref` in `root` that names another file, each
    /// once; walked without recursion. Examples and extensions (`x-…`) are not looked into:
    /// the mapping never follows a `$ref` there, and DigitalOcean's examples alone are
    /// 1,400 files. (A file left out here is still read when it is needed, only not ahead.)
    package static func referencedFileParts(in root: JSONNode) -> [String] {
        var parts: [String] = []
        var seen: Set<String> = []
        var pending = [root]
        while let node = pending.popLast() {
            switch node.value {
            case .object(let members):
                for index in members.indices {
                    let key = members[index].key
                    if key == "$ref", case .string(let text) = members[index].value.value {
                        let filePart = Self.parts(of: text).file
                        if !filePart.isEmpty, seen.insert(filePart).inserted { parts.append(filePart) }
                    } else if members[index].value.isCollection, !isUnmapped(key) {
                        pending.append(members[index].value)
                    }
                }
            case .array(let elements):
                for element in elements where element.isCollection { pending.append(element) }
            default:
                break
            }
        }
        return parts
    }

    /// Keys whose values the mapping never reads: examples and extensions.
    private static func isUnmapped(_ key: String) -> Bool {
        key == "examples" || key == "example" || key.hasPrefix("x-")
    }
}

extension JSONNode {
    /// Whether this is an object or an array, which may hold a `$ref`.
    fileprivate var isCollection: Bool {
        switch value {
        case .object, .array: true
        default: false
        }
    }
}
