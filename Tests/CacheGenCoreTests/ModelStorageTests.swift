import CacheGenCore
import Foundation
import Testing

/// Which model-typed properties are boxed in an `Indirect`: those that close a cycle, and
/// those whose target already nests `inlineDepthLimit` (4) levels of models inline, so that
/// no shape of models makes the compiler's work grow faster than their number.
@Suite struct ModelStorageTests {
    /// `M0` … `M(count-1)`, each with an optional `owner` pointing at the next; the last
    /// points back at `M0` when `cycle`, else at nothing.
    static func chain(_ count: Int, cycle: Bool) -> [String: [String: String]] {
        var models: [String: [String: String]] = [:]
        for index in 0..<count {
            var properties = ["id": "string"]
            if index + 1 < count { properties["owner"] = "M\(index + 1)?" } else if cycle { properties["owner"] = "M0?" }
            models["M\(index)"] = properties
        }
        return models
    }

    /// The models whose property (`model.property`) generated code boxes.
    static func boxed(_ models: [String: [String: String]]) throws -> [String] {
        let modelJSON = models.sorted { $0.key < $1.key }.map { name, properties in
            let fields = properties.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
            return "\"\(name)\": {\"properties\": {\(fields)}}"
        }.joined(separator: ",\n")
        let spec = """
            {"version": 1, "baseURL": "https://example.com", "models": {\(modelJSON)},
             "repositories": {"R": {"endpoints": {"get": {"path": "/m", "response": "M0"}}}}}
            """
        let output = Generator.generate(Data(spec.utf8), path: "Shape.cachegen.json")
        let source = try #require(output.source, "\(output.diagnostics)")
        var result: [String] = []
        var model = ""
        for line in source.split(separator: "\n") {
            if line.hasPrefix("public struct ") { model = String(line.dropFirst(14).prefix { $0 != ":" }) }
            // `    private var _owner: Indirect<M1?>`: the box of `owner`.
            if line.hasPrefix("    private var _"), line.contains(": Indirect<") {
                let property = line.dropFirst(17).prefix { $0 != ":" }
                result.append("\(model).\(property)")
            }
        }
        return result.sorted()
    }

    @Test func aChainIsBoxedEveryFourLevels() throws {
        // Depths from the end: M9 1, M8 2, M7 3, M6 4; M5 boxes its owner and starts again.
        #expect(try Self.boxed(Self.chain(10, cycle: false)) == ["M1.owner", "M5.owner"])
    }

    @Test func aShortChainStaysInline() throws {
        #expect(try Self.boxed(Self.chain(4, cycle: false)) == [])
    }

    @Test func everyLinkOfACycleIsBoxed() throws {
        #expect(try Self.boxed(Self.chain(3, cycle: true)) == ["M0.owner", "M1.owner", "M2.owner"])
        #expect(try Self.boxed(["M0": ["id": "string", "parent": "M0?", "children": "[M0]"]]) == ["M0.parent"])
    }

    /// A chain into a cycle: the cycle's models count as one level deep from outside, since
    /// their own links are boxed.
    @Test func aChainIntoACycle() throws {
        var models = Self.chain(6, cycle: false)
        models["M5"] = ["id": "string", "owner": "M6"]
        models["M6"] = ["id": "string", "back": "M5?"]
        // M5 and M6 form a cycle (both boxed), depth 1 each; M4 2, M3 3, M2 4; M1 boxes.
        #expect(try Self.boxed(models) == ["M1.owner", "M5.owner", "M6.back"])
    }

    /// The deepest branch decides: a model with a short and a long branch is as deep as the long one.
    @Test func theDeepestBranchDecides() throws {
        var models = Self.chain(5, cycle: false)
        models["M0"] = ["id": "string", "owner": "M1?", "leaf": "M4"]
        // M4 1, M3 2, M2 3, M1 4: M0 boxes owner (depth 4) and keeps leaf (depth 1) inline.
        #expect(try Self.boxed(models) == ["M0.owner"])
    }
}
