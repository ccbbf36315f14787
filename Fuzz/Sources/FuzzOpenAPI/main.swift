@testable import CacheGenCore
@testable import CacheGenOpenAPI
@testable import CacheGenReading
@testable import CacheGenSpec
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// The OpenAPI front stage alone (`OpenAPISource`, the pipeline's `InputKind`, then `OpenAPIFrontStage`, overlays
/// included; every other file read is a small companion document): it returns a spec unless
/// it reports an error; it generates no more operations than the document holds; every
/// diagnostic is located inside the file it names, with a one-line message; what it cannot
/// map is a warning; what `SpecValidator` then finds is located inside the document too;
/// and two runs on the same input agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPI(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: start, count: count))
    let data = Data(bytes)
    let file = "api/openapi"
    let root: JSONNode
    do {
        root = try OpenAPISource.parse(data, file: file)
    } catch {
        TextBounds.requireLocated([error], in: [file: TextBounds(bytes)], context: "OpenAPISource")
        return 0
    }
    func run() -> OpenAPIFrontStage.Result {
        switch InputKind(of: root) {
        case .overlay: OpenAPIFrontStage.spec(overlay: root, file: file, read: CompanionFiles.read)
        case .document, .spec: OpenAPIFrontStage.spec(document: root, file: file, read: CompanionFiles.read)
        }
    }
    let first = run()
    let second = run()
    FuzzCheck.require(
        first.spec == second.spec && first.diagnostics == second.diagnostics,
        "OpenAPIFrontStage: two runs on the same input differ")
    let errors = first.diagnostics.filter { $0.severity == .error }
    FuzzCheck.require(first.spec != nil || !errors.isEmpty, "OpenAPIFrontStage: no spec and no error")
    FuzzCheck.require(
        first.operationsGenerated <= first.operationsPresent,
        "OpenAPIFrontStage: \(first.operationsGenerated) operations generated of \(first.operationsPresent)")
    var bounds = [file: TextBounds(bytes)]
    for diagnostic in first.diagnostics where diagnostic.location.file != file {
        bounds[diagnostic.location.file] = CompanionFiles.documentBounds
    }
    TextBounds.requireLocated(first.diagnostics, in: bounds, context: "OpenAPIFrontStage")
    if let spec = first.spec, errors.isEmpty {
        // What the validator then finds points into the document too. (Stricter, and not yet
        // true: "a spec made without errors passes validation"; path parameters whose names
        // differ only in characters Swift names drop, such as "username" and ",username",
        // pass the front stage and fail validation: Seeds/OpenAPI/parameter-name-collision.json.)
        var validator = SpecValidator(spec: spec)
        TextBounds.requireLocated(validator.validate(), in: bounds, context: "SpecValidator after OpenAPIFrontStage")
    }
    return 0
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzOpenAPI))
