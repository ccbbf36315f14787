#if canImport(Observation)
import Foundation
import Observation
@_spi(Generated) import CachedClientCalls

/// A part or a projection of a live query's value (a count, one field, the item a detail
/// screen shows) that notifies its observers only when that part changes: a view that reads
/// it is not redrawn when the rest of the value changes. Made by `CachedQuery.select(_:)`.
///
/// ```swift
/// let unread = inbox.select { $0.filter { !$0.isRead }.count }
/// Text("\(unread.value ?? 0) unread")
/// ```
///
/// It holds its query, so the query stays live (and keeps refetching) while the selection is
/// held; `query` has the rest of its state (`isLoading`, `error`, `isPlaceholder`).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class CachedSelection<Value: Sendable, Part: Equatable> {
    /// The part of the query's value, `nil` while the query has no value; set only when it
    /// changes.
    public private(set) var value: Part?
    /// The query it observes.
    public let query: CachedQuery<Value>
    @ObservationIgnored private let transform: (Value) -> Part

    init(query: CachedQuery<Value>, transform: @escaping (Value) -> Part) {
        self.query = query
        self.transform = transform
        self.value = query.value.map(transform)
    }

    /// Works out the part of a new value of the query; `false` once the selection is gone.
    fileprivate static func follower(_ selection: CachedSelection) -> @MainActor (Value?) -> Bool {
        { [weak selection] new in
            guard let selection else { return false }
            let part = new.map(selection.transform)
            if part != selection.value { selection.value = part }
            return true
        }
    }

    /// Loads the query (`CachedQuery.load()`).
    public func load() async {
        await query.load()
    }

    /// Refreshes the query (`CachedQuery.refresh()`).
    public func refresh() async {
        await query.refresh()
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    /// A derived query: the part of this query's value that `transform` picks (a count, one
    /// field), which notifies only when that part changes, as TanStack Query's `select`.
    /// `transform` runs once for each new value the query shows; keep it cheap.
    public func select<Part: Equatable>(_ transform: @escaping (Value) -> Part) -> CachedSelection<Value, Part> {
        let selection = CachedSelection(query: self, transform: transform)
        selections.append(CachedSelection.follower(selection))
        return selection
    }
}
#endif
