import CacheGenCore
import CacheGenOpenAPI
import CacheGenSpec
import CacheGenTranslation
import CacheGenYAML
import Foundation
import Testing
import GeneratorTestSupport

/// Mutates the example specs (characters, tokens, types, names, durations, methods, cache
/// rules) and runs the whole generator on every mutant: it must return, and either produce
/// source with no errors or produce no source and located, one-line errors.
///
/// Every case is reproducible from its seed alone: `CACHEGEN_FUZZ_SEED=<seed> swift test
/// --filter GeneratorFuzzTests` prints that mutant, its diagnostics and its output. With
/// `CACHEGEN_FUZZ_SAMPLE_DIR` set, a few accepted mutants whose output differs from the
/// original spec's are written there for `Scripts/check/fuzz-sample.sh` to compile. A crash
/// takes the whole test process down; `CACHEGEN_FUZZ_TRACE=1` prints each seed to standard
/// error before it runs, so the last one printed by a shard names the crashing case.
@Suite struct GeneratorFuzzTests {
    static let shardCount = 8
    static let casesPerShard = 1280

    @Test func atLeastTenThousandCases() {
        #expect(Self.shardCount * Self.casesPerShard >= 10_000)
    }

    /// A shard runs on a thread of its own at the lowest priority (`ShardThread`): the
    /// cases are CPU-bound, and on the cooperative pool (two threads on a two-core machine)
    /// they held it from the integration tests running beside them, which then went past
    /// their time limits on a loaded machine. A shard takes 10–20 s of CPU, but at the lowest
    /// priority it waits for whatever else the machine runs (all eight passed 20 minutes of
    /// wall time at a load of 30), so a hang is caught by CPU time alone: a shard past
    /// 5 minutes of CPU stops the process; a case that is slow by itself is caught below.
    @Test(arguments: 0..<shardCount)
    func mutantsGiveSourceOrLocatedErrors(shard: Int) async throws {
        let corpus = try FuzzCorpus.shared()
        let sampleQuota = Self.sampleQuota(shard: shard)
        let trace = ProcessInfo.processInfo.environment["CACHEGEN_FUZZ_TRACE"] == "1"
        let result = await ShardThread.run(cpuLimit: .seconds(300)) {
            Self.runShard(shard, corpus: corpus, sampleQuota: sampleQuota, trace: trace)
        }
        for problem in result.problems { Issue.record(Comment(rawValue: problem)) }
        print(
            "GeneratorFuzzTests shard \(shard): \(Self.casesPerShard) cases, \(result.accepted) accepted, "
                + "slowest seed \(result.slowest.seed) took \(result.slowest.duration)")
        if let directory = ProcessInfo.processInfo.environment["CACHEGEN_FUZZ_SAMPLE_DIR"], !directory.isEmpty {
            for sample in result.samples { try sample.write(into: URL(fileURLWithPath: directory)) }
        }
    }

    /// What a shard found: the problems to record, and what it prints and samples.
    private struct ShardResult: Sendable {
        var problems: [String] = []
        var accepted = 0
        var slowest: (seed: UInt64, duration: Duration) = (0, .zero)
        var samples: [FuzzCase] = []
    }

    /// Runs one shard's cases, synchronously.
    private static func runShard(_ shard: Int, corpus: FuzzCorpus, sampleQuota: Int, trace: Bool) -> ShardResult {
        var result = ShardResult()
        var sampledSources: Set<String> = []
        for index in 0..<casesPerShard {
            let seed = FuzzCase.seed(shard: shard, index: index)
            let fuzzCase = FuzzCase(seed: seed, corpus: corpus)
            if trace { FileHandle.standardError.write(Data("GeneratorFuzzTests: seed \(seed)\n".utf8)) }
            // CPU time, not wall time: at the lowest priority a case may wait for the CPU.
            let start = ShardThread.cpuTime()
            let output = fuzzCase.run()
            let duration = ShardThread.cpuTime() - start
            if duration > result.slowest.duration { result.slowest = (seed, duration) }
            let problems = fuzzCase.problems(in: output)
            if !problems.isEmpty {
                result.problems.append(
                    "seed \(seed) (shard \(shard), case \(index)): \(problems.joined(separator: "; "))\n"
                        + fuzzCase.report(output))
            }
            if duration > .seconds(5) {
                result.problems.append("seed \(seed) (shard \(shard), case \(index)) took \(duration); the generator has a slow path")
            }
            guard let source = output.source else { continue }
            result.accepted += 1
            if result.samples.count < sampleQuota, source != fuzzCase.originalSource(in: corpus),
                sampledSources.insert(source).inserted
            {
                result.samples.append(fuzzCase)
            }
        }
        return result
    }

    /// Runs the one case named by `CACHEGEN_FUZZ_SEED` and prints everything about it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["CACHEGEN_FUZZ_SEED"] != nil))
    func reproduceOneCase() throws {
        let text = ProcessInfo.processInfo.environment["CACHEGEN_FUZZ_SEED"] ?? ""
        let seed = try #require(UInt64(text), "CACHEGEN_FUZZ_SEED must be a case seed, as printed by a failure")
        let fuzzCase = FuzzCase(seed: seed, corpus: try FuzzCorpus.shared())
        let output = fuzzCase.run()
        print(fuzzCase.report(output))
        if let source = output.source { print(source) }
        let problems = fuzzCase.problems(in: output)
        #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "; "))")
    }

    /// How many samples a shard writes, spreading `CACHEGEN_FUZZ_SAMPLE_COUNT` (default 5)
    /// over the shards from the first.
    static func sampleQuota(shard: Int) -> Int {
        let environment = ProcessInfo.processInfo.environment
        let total = environment["CACHEGEN_FUZZ_SAMPLE_COUNT"].flatMap { Int($0) } ?? 5
        return total / shardCount + (shard < total % shardCount ? 1 : 0)
    }
}

// MARK: - Random numbers

// MARK: - The specs being mutated

/// The example specs and the generator's output for each, read once.
private struct FuzzCorpus: Sendable {
    struct Spec: Sendable {
        var name: String
        var path: String
        var text: String
        var sources: [AccessLevel: String]
    }

    var specs: [Spec]

    private static let loaded: Result<FuzzCorpus, FuzzCorpusError> = {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = repository.appendingPathComponent("Examples/specs")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".cachegen.json") }.sorted()
        var specs: [Spec] = []
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let text = String(data: data, encoding: .utf8)
            else { return .failure(FuzzCorpusError(message: "cannot read \(name)")) }
            let path = "Examples/specs/\(name)"
            var sources: [AccessLevel: String] = [:]
            for access in AccessLevel.allCases {
                let output = Generator.generate(data, path: path, options: .init(access: access))
                guard let source = output.source else {
                    return .failure(FuzzCorpusError(message: "\(name) does not generate: \(output.diagnostics)"))
                }
                sources[access] = source
            }
            specs.append(Spec(name: name, path: path, text: text, sources: sources))
        }
        if specs.isEmpty { return .failure(FuzzCorpusError(message: "no example specs in \(folder.path)")) }
        return .success(FuzzCorpus(specs: specs))
    }()

    static func shared() throws -> FuzzCorpus {
        try loaded.get()
    }
}

private struct FuzzCorpusError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

// MARK: - One case

/// One mutant: which spec, which operators, and the text they made. Built from the seed
/// alone.
private struct FuzzCase: Sendable {
    let seed: UInt64
    let specIndex: Int
    let access: AccessLevel
    let path: String
    let text: String
    let operations: [String]

    static func seed(shard: Int, index: Int) -> UInt64 {
        UInt64(shard) * 1_000_000 + UInt64(index)
    }

    init(seed: UInt64, corpus: FuzzCorpus) {
        self.seed = seed
        var random = SplitMix64(state: seed)
        specIndex = random.below(corpus.specs.count)
        let spec = corpus.specs[specIndex]
        access = random.chance(1, in: 8) ? .internal : .public
        path = spec.path
        var mutant = FuzzMutant(text: spec.text)
        var operations: [String] = []
        let count = 1 + random.below(3)
        var attempts = 0
        while operations.count < count, attempts < 50 {
            attempts += 1
            let mutation = random.pick(FuzzMutation.weighted)
            if let description = mutant.apply(mutation, random: &random) {
                operations.append(description)
            }
        }
        text = mutant.text
        self.operations = operations
    }

    func run() -> Generator.Output {
        Generator.generate(Data(text.utf8), path: path, options: .init(access: access))
    }

    func originalSource(in corpus: FuzzCorpus) -> String? {
        corpus.specs[specIndex].sources[access]
    }

    /// Everything wrong with the generator's answer for this mutant.
    func problems(in output: Generator.Output) -> [String] {
        var problems: [String] = []
        let errors = output.diagnostics.filter { $0.severity == .error }
        if output.source != nil, !errors.isEmpty {
            problems.append("source was produced despite \(errors.count) error(s)")
        }
        if output.source == nil, errors.isEmpty {
            problems.append("no source and no error")
        }
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for diagnostic in output.diagnostics {
            let location = diagnostic.location
            if location.file != path {
                problems.append("diagnostic names file \"\(location.file)\", not \"\(path)\": \(diagnostic)")
            }
            if location.line < 1 || location.column < 1 || location.line > lines.count + 1 {
                problems.append("diagnostic outside the \(lines.count)-line file: \(diagnostic)")
            } else if location.line <= lines.count, location.column > lines[location.line - 1].count + 1 {
                problems.append(
                    "diagnostic column past the end of the \(lines[location.line - 1].count)-character line: \(diagnostic)")
            }
            if diagnostic.message.isEmpty {
                problems.append("empty message at \(location)")
            }
            if diagnostic.message.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) {
                problems.append("message spans lines: \(diagnostic.message.debugDescription)")
            }
        }
        return problems
    }

    /// The mutant and what the generator said, for failure messages.
    func report(_ output: Generator.Output) -> String {
        let diagnostics = output.diagnostics.map { "  \($0.description.debugDescription)" }.joined(separator: "\n")
        return """
            spec \(path), access \(access), operations:
            \(operations.map { "  " + $0 }.joined(separator: "\n"))
            diagnostics:
            \(diagnostics.isEmpty ? "  none" : diagnostics)
            source: \(output.source == nil ? "none" : "\(output.source?.count ?? 0) characters")
            mutant text:
            \(text)
            """
    }

    /// Writes the mutant and its output as `fuzz-<seed>.cachegen.json` and `.swift`.
    func write(into directory: URL) throws {
        guard let files = run().files else { return }
        let folder = directory.appendingPathComponent("fuzz-\(seed)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("fuzz-\(seed).cachegen.json"))
        for file in files { try Data(file.contents.utf8).write(to: folder.appendingPathComponent(file.name)) }
    }
}

// MARK: - Mutations

private enum FuzzMutation: CaseIterable {
    case deleteCharacter, duplicateCharacter, swapCharacters, replaceCharacter
    case deleteToken, duplicateToken, swapTokens
    case replaceType, renameKey, renameEverywhere, replaceString, replaceDuration, replaceMethod, replaceCache
    case insertMember

    /// Character and token operators break the JSON most of the time; semantic ones
    /// mostly keep it valid and reach the validator, translator and renderer, so they
    /// are drawn more often.
    static let weighted: [FuzzMutation] = allCases.flatMap { mutation -> [FuzzMutation] in
        switch mutation {
        case .deleteCharacter, .duplicateCharacter, .swapCharacters, .replaceCharacter: [mutation]
        case .deleteToken, .duplicateToken, .swapTokens: [mutation]
        case .renameEverywhere, .replaceType: Array(repeating: mutation, count: 4)
        default: Array(repeating: mutation, count: 2)
        }
    }
}

/// A simple lexical token of the (possibly broken) JSON text.
private struct FuzzToken {
    enum Kind {
        case string, number, punctuation, word
    }

    var kind: Kind
    /// Unicode scalar offsets into the text.
    var range: Range<Int>
}

/// The text being mutated, as Unicode scalars (the unit of diagnostic columns).
private struct FuzzMutant {
    var scalars: [Unicode.Scalar]

    init(text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var text: String { String(String.UnicodeScalarView(scalars)) }

    mutating func apply(_ mutation: FuzzMutation, random: inout SplitMix64) -> String? {
        switch mutation {
        case .deleteCharacter:
            guard !scalars.isEmpty else { return nil }
            let index = random.below(scalars.count)
            let removed = scalars.remove(at: index)
            return "delete character \(Self.show(removed)) at \(index)"
        case .duplicateCharacter:
            guard !scalars.isEmpty else { return nil }
            let index = random.below(scalars.count)
            scalars.insert(scalars[index], at: index)
            return "duplicate character \(Self.show(scalars[index])) at \(index)"
        case .swapCharacters:
            guard scalars.count >= 2 else { return nil }
            let index = random.below(scalars.count - 1)
            scalars.swapAt(index, index + 1)
            return "swap characters at \(index) and \(index + 1)"
        case .replaceCharacter:
            guard !scalars.isEmpty else { return nil }
            let index = random.below(scalars.count)
            let replacement = random.pick(FuzzPools.characters)
            scalars.replaceSubrange(index...index, with: replacement.unicodeScalars)
            return "replace character at \(index) with \(replacement.debugDescription)"
        case .deleteToken:
            let tokens = tokenize()
            guard !tokens.isEmpty else { return nil }
            let token = random.pick(tokens)
            let removed = string(token.range)
            scalars.removeSubrange(token.range)
            return "delete token \(removed.debugDescription) at \(token.range.lowerBound)"
        case .duplicateToken:
            let tokens = tokenize()
            guard !tokens.isEmpty else { return nil }
            let token = random.pick(tokens)
            let copied = string(token.range)
            scalars.insert(contentsOf: (" " + copied).unicodeScalars, at: token.range.upperBound)
            return "duplicate token \(copied.debugDescription) at \(token.range.lowerBound)"
        case .swapTokens:
            let tokens = tokenize()
            guard tokens.count >= 2 else { return nil }
            let first = random.below(tokens.count)
            var second = random.below(tokens.count - 1)
            if second >= first { second += 1 }
            let (a, b) = (tokens[min(first, second)].range, tokens[max(first, second)].range)
            let (textA, textB) = (Array(scalars[a]), Array(scalars[b]))
            scalars.replaceSubrange(b, with: textA)
            scalars.replaceSubrange(a, with: textB)
            return "swap tokens \(String(String.UnicodeScalarView(textA)).debugDescription) at \(a.lowerBound) and "
                + "\(String(String.UnicodeScalarView(textB)).debugDescription) at \(b.lowerBound)"
        case .replaceType:
            let tokens = tokenize()
            let values = stringValueIndices(tokens)
            guard !values.isEmpty else { return nil }
            let token = tokens[random.pick(values)]
            let type = FuzzPools.type(random: &random, modelNames: modelNames(tokens))
            return replace(token.range, with: Self.json(type), random: &random, what: "string value")
        case .renameKey:
            let tokens = tokenize()
            let keys = keyIndices(tokens)
            guard !keys.isEmpty else { return nil }
            let token = tokens[random.pick(keys)]
            return replace(token.range, with: Self.json(FuzzPools.name(random: &random)), random: &random, what: "key")
        case .renameEverywhere:
            return renameEverywhere(random: &random)
        case .replaceString:
            let tokens = tokenize()
            let values = stringValueIndices(tokens)
            guard !values.isEmpty else { return nil }
            let token = tokens[random.pick(values)]
            let text = random.chance(1, in: 2) ? random.pick(FuzzPools.texts) : FuzzPools.name(random: &random)
            return replace(token.range, with: Self.json(text), random: &random, what: "string value")
        case .replaceDuration:
            return replaceValue(ofKeys: ["ttl", "maxStale"], with: FuzzPools.durations, random: &random)
        case .replaceMethod:
            return replaceValue(ofKeys: ["method"], with: FuzzPools.methods, random: &random)
        case .replaceCache:
            return replaceValue(ofKeys: ["cache"], with: FuzzPools.caches, random: &random)
        case .insertMember:
            let tokens = tokenize()
            let opens = tokens.indices.filter { punctuation(tokens[$0]) == "{" }
            guard let open = opens.isEmpty ? nil : random.pick(opens) else { return nil }
            let member = random.pick(FuzzPools.members)
            let closesNext = open + 1 < tokens.count && punctuation(tokens[open + 1]) == "}"
            scalars.insert(
                contentsOf: (" " + member + (closesNext ? " " : ", ")).unicodeScalars, at: tokens[open].range.upperBound)
            return "insert member \(member.debugDescription) at \(tokens[open].range.upperBound)"
        }
    }

    // MARK: Semantic helpers

    private mutating func replace(
        _ range: Range<Int>, with replacement: String, random: inout SplitMix64, what: String
    ) -> String {
        let old = string(range)
        scalars.replaceSubrange(range, with: replacement.unicodeScalars)
        return "replace \(what) \(old.debugDescription) at \(range.lowerBound) with \(replacement.debugDescription)"
    }

    /// Replaces the whole value (an object or array included) of a random member whose
    /// key is one of `keys`.
    private mutating func replaceValue(ofKeys keys: Set<String>, with pool: [String], random: inout SplitMix64)
        -> String?
    {
        let tokens = tokenize()
        let candidates = keyIndices(tokens).filter { keys.contains(content(tokens[$0])) && $0 + 2 < tokens.count }
        guard !candidates.isEmpty else { return nil }
        let key = random.pick(candidates)
        let start = key + 2
        let end = valueEnd(tokens, start: start)
        let range = tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound
        return replace(range, with: random.pick(pool), random: &random, what: "value of \(content(tokens[key]))")
    }

    /// Renames one name everywhere it appears as a whole string and as a `{name}` path
    /// segment, so references keep resolving and the mutant often stays valid.
    private mutating func renameEverywhere(random: inout SplitMix64) -> String? {
        let tokens = tokenize()
        let strings = tokens.filter { $0.kind == .string && $0.range.count >= 2 }
        guard !strings.isEmpty else { return nil }
        let old = content(random.pick(strings))
        let new = FuzzPools.name(random: &random)
        let encodedNew = Self.json(new)
        let innerNew = String(encodedNew.dropFirst().dropLast())
        for token in strings.reversed() {
            let text = content(token)
            if text == old {
                scalars.replaceSubrange(token.range, with: encodedNew.unicodeScalars)
            } else if !old.isEmpty, text.contains("{\(old)}") {
                let replaced = text.replacingOccurrences(of: "{\(old)}", with: "{\(innerNew)}")
                scalars.replaceSubrange(token.range, with: ("\"" + replaced + "\"").unicodeScalars)
            }
        }
        return "rename \(old.debugDescription) everywhere to \(encodedNew.debugDescription)"
    }

    /// Names that look like model names: string tokens starting with an upper-case letter.
    private func modelNames(_ tokens: [FuzzToken]) -> [String] {
        tokens.compactMap { token in
            guard token.kind == .string else { return nil }
            let text = content(token)
            return text.first.map { $0.isUppercase && $0.isASCII } == true && !text.contains(" ") ? text : nil
        }
    }

    // MARK: Tokens

    /// Strings, numbers, punctuation and bare words; whitespace is skipped. Never fails:
    /// an unterminated string runs to the end.
    func tokenize() -> [FuzzToken] {
        var tokens: [FuzzToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case " ", "\t", "\n", "\r":
                index += 1
            case "\"":
                var end = index + 1
                while end < scalars.count, scalars[end] != "\"" {
                    end += scalars[end] == "\\" ? 2 : 1
                }
                end = min(end + 1, scalars.count)
                tokens.append(FuzzToken(kind: .string, range: index..<end))
                index = end
            case "{", "}", "[", "]", ":", ",":
                tokens.append(FuzzToken(kind: .punctuation, range: index..<index + 1))
                index += 1
            case "-", "0"..."9":
                var end = index + 1
                while end < scalars.count, Self.numberScalars.contains(scalars[end]) { end += 1 }
                tokens.append(FuzzToken(kind: .number, range: index..<end))
                index = end
            default:
                var end = index + 1
                while end < scalars.count, !Self.wordEnds.contains(scalars[end]) { end += 1 }
                tokens.append(FuzzToken(kind: .word, range: index..<end))
                index = end
            }
        }
        return tokens
    }

    private static let numberScalars: Set<Unicode.Scalar> = Set("0123456789.eE+-".unicodeScalars)
    private static let wordEnds: Set<Unicode.Scalar> = Set(" \t\n\r\"{}[]:,".unicodeScalars)

    private func string(_ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(scalars[range]))
    }

    /// A string token's text between the quotes, escapes left as written.
    private func content(_ token: FuzzToken) -> String {
        let range = token.range
        let closed = range.count >= 2 && scalars[range.upperBound - 1] == "\""
        return string(range.lowerBound + 1..<(closed ? range.upperBound - 1 : range.upperBound))
    }

    private func punctuation(_ token: FuzzToken) -> Unicode.Scalar? {
        token.kind == .punctuation ? scalars[token.range.lowerBound] : nil
    }

    private func keyIndices(_ tokens: [FuzzToken]) -> [Int] {
        tokens.indices.filter { tokens[$0].kind == .string && $0 + 1 < tokens.count && punctuation(tokens[$0 + 1]) == ":" }
    }

    private func stringValueIndices(_ tokens: [FuzzToken]) -> [Int] {
        tokens.indices.filter {
            tokens[$0].kind == .string && !($0 + 1 < tokens.count && punctuation(tokens[$0 + 1]) == ":")
        }
    }

    /// The token index just past the value starting at `start`, through its matching close.
    private func valueEnd(_ tokens: [FuzzToken], start: Int) -> Int {
        guard let first = punctuation(tokens[start]), first == "{" || first == "[" else { return start + 1 }
        var depth = 0
        for index in start..<tokens.count {
            switch punctuation(tokens[index]) {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            default: break
            }
            if depth == 0 { return index + 1 }
        }
        return tokens.count
    }

    // MARK: Text

    /// `text` as a valid JSON string literal.
    static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func show(_ scalar: Unicode.Scalar) -> String {
        String(scalar).debugDescription
    }
}

// MARK: - Pools

private enum FuzzPools {
    /// Replacements for single characters: JSON punctuation, letters, digits and the odd.
    static let characters: [String] =
        ["{", "}", "[", "]", ":", ",", "\"", "\\", " ", "?", "é", "\u{0}", "😀", "👨‍👩‍👧", "\u{FEFF}", "\u{200B}", "\t", "\n", "\u{7F}"]
        + "0123456789".map(String.init) + "abcdefghijklmnopqrstuvwxyz".map(String.init)

    static let keywords = [
        "default", "self", "Self", "Type", "type", "protocol", "in", "init", "class", "func", "let", "var", "true",
        "nil", "Any", "some", "any", "async", "await", "throws", "super", "Protocol", "_", "__", "is", "as",
        "subscript", "deinit", "associatedtype", "inout", "operator", "where", "return",
    ]

    static let wireNames = [
        "+1", "-1", "@id", "x-api-key", "X-Api-Key", "2fa", "a b", "ünïcode", "é", "", " ", "@", "-", "$ref", "a.b",
        "a/b", "{id}", "id}", "a\"b", "a\\b", "a\nb", "tab\there", "\u{0}", "😀", "*/", "/*", "\\(x)", "#", "per_page",
        "perPage", "PerPage", "per-page", "PER_PAGE", "hip-hop", "hipHop", "hip_hop", "body", "policy", "request",
        "request_", "client", "value", "rawValue", "hashValue", "allCases", "description", "encode", "decoder", "id",
        "Id", "ID", "url", "Ａ", "\u{2028}", "\u{85}", "getAccounts", "getAccountsStream", "Stream", "a\u{301}",
    ]

    static let typeNames = [
        "String", "Data", "URL", "Int", "Date", "UUID", "Codable", "Sendable", "Equatable", "CaseIterable",
        "CodingKey", "CodingKeys", "Endpoints", "Requests", "Endpoint", "EndpointRequest", "CachedValue",
        "CachePolicy", "CacheRule", "CachedClient", "JSONCoding", "Swift", "Foundation", "Optional", "Array", "Error",
        "Never", "Void", "AnyObject", "Live", "LiveAccountRepository", "Account", "AccountRepository", "Result", "Task",
        "Hashable", "RawRepresentable", "Decoder", "Encoder", "AsyncThrowingStream", "Bool", "Double", "Float",
        "Character", "Substring", "Set", "Dictionary", "Identifiable", "Sequence", "Collection", "MainActor",
        "Comparable", "Error_", "ObjectIdentifier", "CodingUserInfoKey", "KeyPath", "AsyncStream",
    ]

    static func name(random: inout SplitMix64) -> String {
        switch random.below(3) {
        case 0: random.pick(keywords)
        case 1: random.pick(wireNames)
        default: random.pick(typeNames)
        }
    }

    static let types = [
        "[string: Account]?", "[[int]]", "Foo", "string??", "[string", "string]", "[int: string]",
        "[string: [string: [uuid?]]]", "?", "", " string ", "string ?", "[ string : int ]", "Int", "String", "date?",
        "url", "bool?", "[Account?]", "[string:]", "[:]", "[]", "[string?: int]", "string!", "uuid", "double",
        "[[[[[[[[[[[[int]]]]]]]]]]]]", "string\u{0}", "stríng", "Ａccount", "a b", "[string: int?]?", "[[string]?]?",
    ]

    /// A type string: from the pool, built from the spec's model names, or deeply nested.
    static func type(random: inout SplitMix64, modelNames: [String]) -> String {
        switch random.below(6) {
        case 0 where !modelNames.isEmpty:
            let model = random.pick(modelNames)
            return random.pick(["\(model)", "\(model)?", "[\(model)]", "[string: \(model)]", "[\(model)?]?", "[[\(model)]]"])
        case 1:
            // 100,000 levels overflow any thread's stack in a recursive reader.
            let depth = random.pick([40, 300, 3000, 100_000])
            let inner = random.pick(["int", "string?", "Account"])
            return String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
        case 2:
            let depth = random.pick([40, 3000])
            return String(repeating: "[string: ", count: depth) + "int" + String(repeating: "]", count: depth)
        default:
            return random.pick(types)
        }
    }

    /// Replacement string values: paths, URLs, text that stresses comments and literals.
    static let texts: [String] = [
        "https://x.example/v1", "http://", "ftp://a.b", "https://a b", "/", "/a/{b}/{b}", "/a/{}", "/{id", "/x?y=1",
        "/a\nb", "/a/{x y}", "/a/{é}", "/{self}", "/{policy}", "/{body}", "/{request}", "/{+1}", "/{default}", "/a/*/b",
        "/{a\nb}", "/{\u{0}}", "/{id}/{ID}", "/{per_page}/{perPage}", "\"\"\"", "#\"", "\\u{41}", "line1\nline2",
        "\u{2028}", "\u{85}", "///", "*/", "/*", "%@", "\\(", "\r\n", "\r", "emoji 😀", "a\u{0}b", "\u{1B}[31m",
        String(repeating: "long ", count: 2000), "🇺🇳", "e\u{301}", "\t", " ", "", "snake_case", "exact", "iso8601",
        "secondsSince1970", "networkOnly", "cacheOnly", "user", "shared", "body", "id",
    ]

    static let durations = [
        "1e300", "-1", "\"99999999999999999999d\"", "0", "-0", "1.5", "1e3", "1E400", "9223372036854775807",
        "9223372036854775808", "\"9223372036854775807s\"", "\"106751991167300d\"", "\"106751991167301d\"", "\"5x\"",
        "\"\"", "\"-5m\"", "\"+5m\"", "\" 5m\"", "\"5 m\"", "\"٣d\"", "\"5M\"", "\"1.5h\"", "null", "true", "[]", "{}",
        "\"7d\"", "600", "\"0s\"", "1e2", "100.0", "0.5", "-9223372036854775808", "\"d\"", "\"s\"", "1e-300",
        "4503599627370497", "9007199254740993", "\"0x10s\"", "\"1_000s\"", "\"00010m\"",
    ]

    static let methods = [
        "\"GET\"", "\"get\"", "\"Get\"", "\"POST\"", "\"post\"", "\"PUT\"", "\"PATCH\"", "\"DELETE\"", "\"HEAD\"",
        "\"head\"", "\"OPTIONS\"", "\"TRACE\"", "\"CONNECT\"", "\"\"", "\"G ET\"", "\"FOO\"", "\"ß\"", "\"ﬁ\"",
        "\"gEt\"", "\"ıt\"", "\"GET\\n\"", "1", "null", "true", "[]", "{}", "[\"GET\"]",
    ]

    static let caches = [
        "true", "false", "null", "0", "1", "\"false\"", "{}", "[]", "{\"ttl\": 0}", "{\"key\": []}",
        "{\"key\": [\"body\"]}", "{\"key\": [\"body\"], \"ttl\": \"1h\"}", "{\"scope\": \"global\"}",
        "{\"scope\": \"shared\"}", "{\"policy\": \"cacheOnly\"}", "{\"policy\": \"networkOnly\"}",
        "{\"policy\": \"staleWhileRevalidate\"}", "{\"ttl\": \"1h\", \"key\": [\"nonexistent\"]}", "{\"key\": \"id\"}",
        "{\"key\": [1]}", "{\"key\": [\"id\", \"id\"]}", "{\"ttl\": 60, \"maxStale\": 30}", "{\"maxStale\": \"0s\"}",
        "{\"tll\": 5}", "{\"key\": [\"id\"]}", "{\"key\": [\"page\"]}", "{\"key\": [\"X-Api-Version\"]}",
        "{\"key\": [\"body\", \"id\"], \"policy\": \"cacheFirst\", \"scope\": \"user\"}",
    ]

    /// Members inserted after a random `{`: some fit where they land, most do not.
    static let members = [
        "\"json\": \"x\"", "\"json\": \"\"", "\"json\": \"id\"", "\"pathParameters\": {\"id\": \"int\"}",
        "\"pathParameters\": {\"id\": \"int?\"}", "\"pathParameters\": {\"nope\": \"int\"}",
        "\"headers\": {\"X-Trace\": \"string?\"}", "\"headers\": {\"If-None-Match\": \"string\", \"if_none_match\": \"int\"}",
        "\"query\": {\"tags\": \"[string]\"}", "\"query\": {\"kinds\": \"[AccountKind]?\"}",
        "\"query\": {\"genres\": \"[Genre]?\"}", "\"query\": {\"section\": \"ParagraphKind\"}",
        "\"query\": {\"policy\": \"string\", \"body\": \"int\", \"request\": \"bool\"}", "\"query\": {\"map\": \"[string: int]\"}",
        "\"description\": \"line one\\nline two */ /* \\\"quoted\\\"\"", "\"description\": \"\"", "\"scope\": \"shared\"",
        "\"body\": \"Account\"", "\"body\": \"[string: int]\"", "\"response\": \"[string: [Account]]\"",
        "\"method\": \"PUT\"", "\"cache\": true", "\"cache\": {\"key\": [\"body\"]}", "\"enum\": [\"a\", \"A\"]",
        "\"enum\": []", "\"enum\": [\"default\", \"self\", \"Type\", \"init\", \"+1\", \"-1\", \"2fa\", \"ünïcode\"]",
        "\"properties\": {}", "\"NewModel\": {\"properties\": {\"self\": \"string\", \"Type\": \"int\", \"init\": \"bool?\"}}",
        "\"Requests\": {\"properties\": {\"id\": \"string\"}}", "\"Endpoints\": {\"enum\": [\"a\"]}",
        "\"CodingKeys\": {\"enum\": [\"a\"]}", "\"CaseIterable\": {\"properties\": {\"x\": \"int\"}}",
        "\"extra\": {\"path\": \"/extra/{id}\", \"response\": \"string\"}",
        "\"client\": {\"path\": \"/client\", \"response\": \"string\", \"cache\": false}",
        "\"init\": {\"path\": \"/init\", \"response\": \"int\"}", "\"version\": 2", "\"jsonKeys\": \"exact\"",
        "\"dates\": \"secondsSince1970\"",
    ]
}
