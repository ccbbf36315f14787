import Foundation

// Printed figures for PostgresCacheStore, not tests (see the package README for the table):
//
//   Scripts/with-postgres.sh sh -c 'swift build -c release --package-path Stores/PostgresCacheStore &&
//       Stores/PostgresCacheStore/.build/release/PostgresStoreBenchmarks'
//
// Needs CACHEGEN_POSTGRES_URL and the PostgresStoreChild executable built beside it.
guard let url = ProcessInfo.processInfo.environment["CACHEGEN_POSTGRES_URL"] else {
    FileHandle.standardError.write(Data("PostgresStoreBenchmarks: CACHEGEN_POSTGRES_URL is not set; run through Scripts/with-postgres.sh\n".utf8))
    exit(2)
}
do {
    try await Benchmarks(url: url).run()
} catch {
    FileHandle.standardError.write(Data("PostgresStoreBenchmarks: \(error)\n".utf8))
    exit(1)
}
