import Foundation
import Testing

@testable import CacheGenReading
@testable import CacheGenYAML
import GeneratorTestSupport

/// Runs the community YAML test suite (`Tests/Fixtures/ThirdParty/yaml-test-suite`, data branch) through
/// the reader. Every case with an `in.json` must read as exactly that value or be
/// rejected with a located error (outside the subset); every `error` case must be
/// rejected. A wrong value or an accepted error case fails the test.
@Suite struct YAMLTestSuiteTests {
    /// The suite's folder: `Tests/Fixtures/ThirdParty/yaml-test-suite`.
    static let suiteURL = ThirdPartyFixtures.yamlTestSuite

    /// One case: a folder holding `in.yaml`.
    struct Case {
        var name: String
        var folder: URL
    }

    /// Every case folder, with numbered sub-folders as cases of their own.
    static func cases() throws -> [Case] {
        let manager = FileManager.default
        var cases: [Case] = []
        for name in try manager.contentsOfDirectory(atPath: suiteURL.path).sorted() {
            let folder = suiteURL.appendingPathComponent(name)
            if manager.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                cases.append(Case(name: name, folder: folder))
                continue
            }
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                continue
            }
            for sub in try manager.contentsOfDirectory(atPath: folder.path).sorted() {
                let subFolder = folder.appendingPathComponent(sub)
                if manager.fileExists(atPath: subFolder.appendingPathComponent("in.yaml").path) {
                    cases.append(Case(name: "\(name)/\(sub)", folder: subFolder))
                }
            }
        }
        return cases
    }

    @Test func wholeSuite() throws {
        let cases = try Self.cases()
        #expect(cases.count > 300, "the suite at \(Self.suiteURL.path) is missing or incomplete")
        var total = 0
        var inSubset = 0
        var passed = 0
        var errorCases = 0
        var rejectedErrorCases = 0
        var acceptedWithoutJSON: [String] = []
        var failures: [String] = []
        let verbose = ProcessInfo.processInfo.environment["YAML_SUITE_VERBOSE"] != nil

        for testCase in cases {
            let yaml = try [UInt8](Data(contentsOf: testCase.folder.appendingPathComponent("in.yaml")))
            let file = "\(testCase.name)/in.yaml"
            let isError = FileManager.default.fileExists(atPath: testCase.folder.appendingPathComponent("error").path)
            let jsonData = try? Data(contentsOf: testCase.folder.appendingPathComponent("in.json"))
            let result: Result<JSONNode, Diagnostic>
            do throws(Diagnostic) {
                result = .success(try YAMLReader.parse(bytes: yaml, file: file))
            } catch {
                result = .failure(error)
            }
            if case .failure(let diagnostic) = result {
                let lines = yaml.count(where: { $0 == 0x0A }) + 1
                if diagnostic.location.file != file || diagnostic.location.line < 1
                    || diagnostic.location.line > lines || diagnostic.location.column < 1
                {
                    failures.append("\(testCase.name): error not located in the file: \(diagnostic)")
                }
            }
            if isError {
                errorCases += 1
                switch result {
                case .success(let node):
                    failures.append("\(testCase.name): error case accepted as \(Self.render(node))")
                case .failure(let diagnostic):
                    rejectedErrorCases += 1
                    if verbose { print("rejected \(diagnostic)") }
                }
                continue
            }
            guard let jsonData else {
                if case .success(let node) = result {
                    acceptedWithoutJSON.append(testCase.name)
                    if verbose { print("accepted without in.json \(testCase.name): \(Self.render(node))") }
                }
                continue
            }
            total += 1
            let expected = try? JSONReader.parse(jsonData, file: "in.json")
            switch result {
            case .failure(let diagnostic):
                if verbose { print("outside the subset \(diagnostic)") }
            case .success(let node):
                inSubset += 1
                guard let expected else {
                    failures.append(
                        "\(testCase.name): in.json holds no single value (several documents or none), "
                            + "but the reader gave \(Self.render(node))")
                    continue
                }
                if Self.equal(node, expected) {
                    passed += 1
                } else {
                    failures.append(
                        "\(testCase.name): wrong value \(Self.render(node)), expected \(Self.render(expected))")
                }
            }
        }
        print(
            "YAML test suite: passed \(passed) / in subset \(inSubset) / total \(total) (cases with in.json); "
                + "error cases rejected \(rejectedErrorCases) / \(errorCases); "
                + "accepted without in.json to compare: \(acceptedWithoutJSON.count) \(acceptedWithoutJSON)")
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }

    /// Whether two values are equal as JSON values: object members in any order, numbers by value.
    static func equal(_ lhs: JSONNode, _ rhs: JSONNode) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            var byKey: [String: JSONNode] = [:]
            for member in right { byKey[member.key] = member.value }
            guard byKey.count == right.count else { return false }
            return left.allSatisfy { member in byKey[member.key].map { equal(member.value, $0) } ?? false }
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
        case (.number(let left, _), .number(let right, _)):
            return left == right
        default:
            return lhs.value == rhs.value
        }
    }

    /// Where two values first differ as JSON values, as a path and both sides; `nil` when equal.
    static func firstDifference(_ lhs: JSONNode, _ rhs: JSONNode, path: String = "$") -> String? {
        switch (lhs.value, rhs.value) {
        case (.object(let left), .object(let right)):
            var byKey: [String: JSONNode] = [:]
            for member in right { byKey[member.key] = member.value }
            for member in left {
                guard let other = byKey.removeValue(forKey: member.key) else {
                    return "\(path): unexpected key \(quoted(member.key))"
                }
                if let difference = firstDifference(member.value, other, path: path + "." + member.key) {
                    return difference
                }
            }
            return byKey.keys.sorted().first.map { "\(path): missing key \(quoted($0))" }
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return "\(path): \(left.count) items, expected \(right.count)" }
            for (index, (item, other)) in zip(left, right).enumerated() {
                if let difference = firstDifference(item, other, path: "\(path)[\(index)]") { return difference }
            }
            return nil
        default:
            return equal(lhs, rhs) ? nil : "\(path): \(render(lhs)), expected \(render(rhs))"
        }
    }

    /// A compact JSON rendering of a value, members in order, for expectations and failure messages.
    static func render(_ node: JSONNode) -> String {
        switch node.value {
        case .object(let members):
            "{" + members.map { "\(string($0.key)): \(render($0.value))" }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        case .string(let text): string(text)
        case .number(_, let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }

    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += #"\""#
            case "\\": result += #"\\"#
            case "\n": result += #"\n"#
            case "\r": result += #"\r"#
            case "\t": result += #"\t"#
            case _ where scalar.value < 0x20:
                result += String(format: #"\u%04X"#, scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
