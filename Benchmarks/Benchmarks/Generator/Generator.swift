// Item 1 of the benchmark plan, in process: parse + validate + render of the synthetic
// 1,000-endpoint spec that Scripts/fixtures/make-large-spec.py writes. The spec is made on the fly
// (python3) unless CACHEGEN_LARGE_SPEC names an existing file.
// The whole-process figure is Scripts/bench/generator-process.sh.

import Benchmark
import CacheGenCore
import Foundation

final class SpecFixture: Sendable {
    let data: Data
    let path: String

    init() throws {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["CACHEGEN_LARGE_SPEC"], FileManager.default.fileExists(atPath: given) {
            path = given
        } else {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("Large.cachegen.json").path
            let script = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Scripts/fixtures/make-large-spec.py").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, path]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw SpecMissing(path: script) }
        }
        data = try Data(contentsOf: URL(fileURLWithPath: path))
        let output = Generator.generate(data, path: path, options: .init())
        guard output.files != nil else { throw SpecInvalid(diagnostics: output.diagnostics.map { "\($0)" }) }
    }

    struct SpecInvalid: Error, CustomStringConvertible {
        var diagnostics: [String]
        var description: String { diagnostics.joined(separator: "\n") }
    }

    struct SpecMissing: Error, CustomStringConvertible {
        var path: String
        var description: String { "could not run \(path)" }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "Generator: 1,000-endpoint spec, parse + validate + render",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
            timeUnits: .milliseconds,
            warmupIterations: 2,
            maxDuration: .seconds(10),
            maxIterations: 200)
    ) { benchmark, fixture in
        for _ in benchmark.scaledIterations {
            let output = Generator.generate(fixture.data, path: fixture.path, options: .init())
            blackHole(output)
        }
    } setup: {
        try SpecFixture()
    }
}
