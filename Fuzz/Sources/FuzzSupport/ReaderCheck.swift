import CacheGenCore
import CacheGenOpenAPI
import CacheGenReading
import Foundation

/// The invariants both readers share: a located error or a tree located inside the input,
/// no deeper than the reader's limit, that survives being written as JSON and read back.
public enum ReaderCheck {
    /// Checks one reader's result for `bytes` read as `file`; returns the tree, if any.
    @discardableResult
    public static func requireInvariants(
        _ result: Result<JSONNode, Diagnostic>, bytes: [UInt8], file: String, maximumDepth: Int, reader: String
    ) -> JSONNode? {
        let bounds = TextBounds(bytes)
        switch result {
        case .failure(let error):
            FuzzCheck.require(error.severity == .error, "\(reader): a thrown diagnostic is a warning: \(error)")
            FuzzCheck.require(error.location.file == file, "\(reader): error names another file: \(error)")
            TextBounds.requireLocated([error], in: [file: bounds], context: reader)
            return nil
        case .success(let root):
            JSONValue.forEachLocation(root) { location in
                FuzzCheck.require(location.file == file, "\(reader): node located in another file: \(location)")
                if let problem = bounds.problem(with: location) { FuzzCheck.fail("\(reader): node \(problem)") }
            }
            let shape = JSONValue.shape(root)
            FuzzCheck.require(shape.depth <= maximumDepth, "\(reader): nesting \(shape.depth) beyond the limit \(maximumDepth)")
            // What the reader made is JSON: written out and read back, it is the same value.
            let text = JSONValue.text(root)
            do {
                let reread = try JSONReader.parse(Data(text.utf8), file: "reread.json")
                FuzzCheck.require(JSONValue.same(root, reread), "\(reader): the value changed when written as JSON and read back: \(text.prefix(300))")
            } catch {
                FuzzCheck.fail("\(reader): its value written as JSON does not read back: \(error) in \(text.prefix(300))")
            }
            return root
        }
    }

    /// Runs `parse` as a `Result`.
    public static func result(_ parse: () throws(Diagnostic) -> JSONNode) -> Result<JSONNode, Diagnostic> {
        do throws(Diagnostic) {
            return .success(try parse())
        } catch {
            return .failure(error)
        }
    }
}
