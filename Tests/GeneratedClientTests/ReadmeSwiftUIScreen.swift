// The SwiftUI code of the README ("A call, and a live query") and of the DocC article `LiveQueries`.
// SwiftUI and Network exist on Apple platforms only, so this file is compiled there and not
// on Linux; everything it calls is in ReadmeSwiftUICode.swift, compiled and tested everywhere.
#if canImport(SwiftUI) && canImport(Network)
import CachedClientRuntime
import SwiftUI

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct AccountsScreen: View {
    let repository: any AccountRepository
    @State private var accounts: CachedQuery<[Account]>

    init(repository: any AccountRepository) {
        self.repository = repository
        _accounts = State(initialValue: repository.getAccountsQuery(page: 1))
    }

    var body: some View {
        List(accounts.value ?? [], id: \.id) { account in
            Text(account.nickname ?? account.id)
                .swipeActions { Button("Name it Main") { Task { try? await renameAccount(account.id, to: "Main", in: repository) } } }
        }
        .safeAreaInset(edge: .top) {
            TimelineView(.everyMinute) { context in
                if let banner = AgeBanner.text(for: accounts, now: context.date) { Text(banner).font(.footnote) }
            }
        }
        .overlay { if accounts.value == nil, let error = accounts.error { Text(error.localizedDescription) } }
        .refreshable { await accounts.refresh() }
        .task { await accounts.load() }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
#Preview { AccountsScreen(repository: previewRepository) }

import Network

/// What only the app knows, told to the client.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct LifecycleSignals: ViewModifier {
    let client: CachedClient
    let monitor: NWPathMonitor
    @Environment(\.scenePhase) private var scenePhase

    func body(content: Content) -> some View {
        content
            .onChange(of: scenePhase) { if scenePhase == .active { client.appBecameActive() } }
            .task {
                monitor.pathUpdateHandler = { path in if path.status == .satisfied { client.networkBecameAvailable() } }
                monitor.start(queue: .main)
            }
    }
}
#endif
