import CacheGenCore
import CacheGenReading
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// JSON reader: a located error or a tree whose locations lie inside the input in document
/// order, no deeper than `JSONReader.maximumDepth`, that reads back equal when written as
/// JSON; the same bytes read twice give the same result, locations included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: start, count: count))
    let file = "fuzz.json"
    let first = ReaderCheck.result { () throws(Diagnostic) in try JSONReader.parse(Data(bytes), file: file) }
    let root = ReaderCheck.requireInvariants(first, bytes: bytes, file: file, maximumDepth: JSONReader.maximumDepth, reader: "JSONReader")
    let second = ReaderCheck.result { () throws(Diagnostic) in try JSONReader.parse(Data(bytes), file: file) }
    FuzzCheck.require(first == second, "JSONReader: two reads of the same bytes differ")
    if let root {
        // Document order: every key and value starts after the one before it.
        var previous: SourceLocation?
        JSONValue.forEachLocation(root) { location in
            if let previous {
                FuzzCheck.require(
                    (previous.line, previous.column) < (location.line, location.column),
                    "JSONReader: \(location) does not follow \(previous)")
            }
            previous = location
        }
    }
    return 0
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzJSONReader))
