import CacheGenCore
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// The whole generator on arbitrary bytes (a cachegen spec, an OpenAPI document or an
/// overlay, JSON or YAML, decided by content as the CLI does): it either reports errors and
/// produces no files, or produces every file of the layout with no error; every diagnostic
/// is located `file:line:column` inside the file it names, with a one-line message; and the
/// same input run twice gives the same output, byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpecPipeline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: start, count: count))
    let data = Data(bytes)
    // No extension: JSON or YAML is decided by the first byte, as for a file named so.
    let path = "Specs/Fuzz.cachegen"
    let options = Generator.Options(access: count % 2 == 0 ? .public : .internal)
    let first = Generator.generate(data, path: path, options: options, read: CompanionFiles.read)
    let second = Generator.generate(data, path: path, options: options, read: CompanionFiles.read)
    FuzzCheck.require(first == second, "Generator: two runs on the same input differ")

    let errors = first.diagnostics.filter { $0.severity == .error }
    if let files = first.files {
        FuzzCheck.require(errors.isEmpty, "Generator: files produced despite \(errors.count) error(s): \(errors[0])")
        let names = first.layout.fileNames
        FuzzCheck.require(first.layout.specName == OutputLayout.specName(of: path), "Generator: the layout names another spec")
        // The companion files read add to the spec's own bytes, never take from them.
        let sizes = OutputLayout.Size.allCases
        FuzzCheck.require(
            sizes.firstIndex(of: first.layout.size)! >= sizes.firstIndex(of: OutputLayout.Size(inputBytes: bytes.count))!,
            "Generator: a layout smaller than the spec's own bytes")
        FuzzCheck.require(files.map(\.name) == names, "Generator: files \(files.map(\.name)) are not the layout's \(names)")
        FuzzCheck.require(files.contains { !$0.contents.isEmpty }, "Generator: every file is empty")
    } else {
        FuzzCheck.require(!errors.isEmpty, "Generator: no files and no error")
    }
    // The companion document's own warnings may point into it. (The input is measured only
    // when there is a diagnostic to check against it.)
    if !first.diagnostics.isEmpty {
        var bounds = [path: TextBounds(bytes)]
        for diagnostic in first.diagnostics where diagnostic.location.file != path {
            bounds[diagnostic.location.file] = CompanionFiles.documentBounds
        }
        TextBounds.requireLocated(first.diagnostics, in: bounds, context: "Generator")
    }
    FuzzCheck.require(
        first.diagnostics == first.diagnostics.sorted { $0.location < $1.location }
            || first.diagnostics.count <= 1,
        "Generator: diagnostics are not in file order")
    return 0
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzSpecPipeline))
