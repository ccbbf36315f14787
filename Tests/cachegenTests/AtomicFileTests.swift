import Foundation
import Testing

@testable import cachegen

/// Generated files are replaced by renaming a finished file over them, and nothing else is
/// left in the folder.
@Suite struct AtomicFileTests {
    @Test func writesAndReplacesAFileLeavingNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("API+Models0.cachegen.swift")
        try AtomicFile.write(Data("first".utf8), to: file)
        #expect(try Data(contentsOf: file) == Data("first".utf8))
        try AtomicFile.write(Data(), to: file)
        #expect(try Data(contentsOf: file).isEmpty)
        let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try AtomicFile.write(large, to: file)
        #expect(try Data(contentsOf: file) == large)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [file.lastPathComponent])
    }

    @Test func aFolderThatIsNotThereIsFoundationsError() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("missing/API+Models0.cachegen.swift")
        var atomicError: (any Error)?
        var foundationError: (any Error)?
        do { try AtomicFile.write(Data("x".utf8), to: file) } catch { atomicError = error }
        do { try Data("x".utf8).write(to: file, options: .atomic) } catch { foundationError = error }
        #expect(atomicError != nil)
        #expect(atomicError?.localizedDescription == foundationError?.localizedDescription)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
