import CacheGenCore
import CacheGenReading
import CacheGenYAML
import Foundation
import FuzzSupport
import LibFuzzerDriver

/// YAML reader: a located error or a tree located inside the input, no deeper than
/// `YAMLReader.maximumDepth`, holding only what JSON can (written as JSON it reads back
/// equal: no infinities, no NaN, no non-string keys); aliases cannot make it grow past
/// `maximumAliasExpansion` values; YAML being a superset of JSON, when both readers accept
/// the bytes they agree on the value; the same bytes read twice give the same result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReader(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: start, count: count))
    let file = "fuzz.yaml"
    let first = ReaderCheck.result { () throws(Diagnostic) in try YAMLReader.parse(Data(bytes), file: file) }
    let root = ReaderCheck.requireInvariants(first, bytes: bytes, file: file, maximumDepth: YAMLReader.maximumDepth, reader: "YAMLReader")
    let second = ReaderCheck.result { () throws(Diagnostic) in try YAMLReader.parse(Data(bytes), file: file) }
    FuzzCheck.require(first == second, "YAMLReader: two reads of the same bytes differ")
    guard let root else { return 0 }
    let nodes = JSONValue.shape(root).count
    FuzzCheck.require(
        nodes <= YAMLReader.maximumAliasExpansion + bytes.count + 1,
        "YAMLReader: \(nodes) values from \(bytes.count) bytes; aliases expanded past the limit")
    if let json = try? JSONReader.parse(Data(bytes), file: "fuzz.json") {
        FuzzCheck.require(
            JSONValue.same(root, json),
            "YAMLReader: reads this JSON document as another value: YAML \(JSONValue.text(root).prefix(200)) JSON \(JSONValue.text(json).prefix(200))")
    }
    return 0
}

// libFuzzer runs the loop; SwiftPM's `main` is this file's top-level code.
var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues, fuzzYAMLReader))
