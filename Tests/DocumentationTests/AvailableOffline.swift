import CachedClientRuntime
import Foundation

// The code of AvailableOffline.md.

func makeTripAvailableOffline(client: CachedClient, accounts: some AccountRepository) async throws -> PrefetchJob {
    let firstPage = try await accounts.getAccounts(page: 1).value
    var calls = [try await PrefetchCall { try await accounts.getAccounts(page: 1) }]
    for account in firstPage {
        calls.append(try await PrefetchCall { try await accounts.getAccount(id: account.id) })
    }
    return client.prefetch(named: "trip", calls)
}

func showProgress(of job: PrefetchJob) async -> String {
    var line = ""
    for await progress in job.updates() {
        line = "\(progress.completed) of \(progress.total) saved (\(progress.bytes / 1_024) KB)"
    }
    return job.progress.failed == 0 ? line : line + ", \(job.progress.failed) to retry"
}

func resumeAtLaunch(client: CachedClient) async throws {
    if let job = try await client.resumePrefetch(named: "trip") {
        await job.result()
    }
}

func tripIsOver(client: CachedClient) async throws {
    try await client.unpin(named: "trip")
}
