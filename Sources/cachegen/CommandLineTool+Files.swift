import CacheGenCore
import Foundation

/// One spec's generated files, with the layout that says which files in the output folder
/// an earlier run may have written for it.
struct OutputSet: Sendable {
    /// The spec's file names and the test for its earlier files.
    var layout: OutputLayout
    /// Every file the spec has now.
    var files: [GeneratedFile]

    /// Files in `existing` (names in the output folder) that an earlier run wrote for this
    /// spec and that it no longer has, sorted.
    func staleFiles(among existing: [String]) -> [String] {
        let current = Set(files.map(\.name))
        return existing.filter { layout.isGeneratedFile($0) && !current.contains($0) }.sorted()
    }
}

/// Writing and checking the output folder: only what changed is touched, so the build
/// system's incremental compilation recompiles only the files whose bytes changed.
extension CommandLineTool {
    /// Writes each file whose bytes differ, so unchanged output keeps its date and dependent
    /// builds stay incremental, and removes each spec's stale files.
    func write(_ sets: [OutputSet], to directory: URL) -> ExitStatus {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            output.error("error: cannot create \(directory.path): \(error.localizedDescription)")
            return .failure
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var written = 0
        var unchanged = 0
        var removed = 0
        for set in sets {
            for file in set.files {
                let url = directory.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                if (try? Data(contentsOf: url)) == data {
                    unchanged += 1
                    continue
                }
                do {
                    try AtomicFile.write(data, to: url)
                    written += 1
                } catch {
                    output.error("error: cannot write \(url.path): \(error.localizedDescription)")
                    return .failure
                }
            }
            for name in set.staleFiles(among: existing) {
                let url = directory.appendingPathComponent(name)
                do {
                    try FileManager.default.removeItem(at: url)
                    removed += 1
                } catch {
                    output.error("error: cannot remove the stale file \(url.path): \(error.localizedDescription)")
                    return .failure
                }
            }
        }
        let removals = removed == 0 ? "" : ", \(removed) stale removed"
        output.print("cachegen: \(written) written, \(unchanged) unchanged\(removals) in \(directory.path)")
        return .success
    }

    /// Compares without writing, for CI of projects that check generated code in: every file
    /// of the set must be there with the same bytes, and no file of an earlier set be left.
    func check(_ sets: [OutputSet], in directory: URL) -> ExitStatus {
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var stale: [String] = []
        var count = 0
        for set in sets {
            for file in set.files {
                count += 1
                let url = directory.appendingPathComponent(file.name)
                guard let existing = try? Data(contentsOf: url) else {
                    stale.append("\(file.name): missing")
                    continue
                }
                if existing != Data(file.contents.utf8) {
                    let old = String(decoding: existing, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                    let new = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
                    let firstDifference = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                        ?? min(old.count, new.count)
                    stale.append("\(file.name): differs from line \(firstDifference + 1)")
                }
            }
            for name in set.staleFiles(among: existing) { stale.append("\(name): no longer generated; remove it") }
        }
        guard !stale.isEmpty else {
            output.print("cachegen: \(count) up to date in \(directory.path)")
            return .success
        }
        for line in stale { output.error("stale: \(line)") }
        output.error("error: generated code is out of date; run cachegen generate without --check")
        return .failure
    }
}
