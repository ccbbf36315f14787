import Foundation

/// A value from a cached endpoint, saying whether it came from the network just now
/// or from disk, and if so, when it was stored, so an app can say how old it is.
public enum CachedValue<Value> {
    /// The network answered this call.
    case fresh(value: Value)
    /// The network was skipped or failed; this is the entry stored at `date`.
    case cached(value: Value, date: Date)

    /// The value, wherever it came from.
    public var value: Value {
        switch self {
        case .fresh(let value), .cached(let value, _): value
        }
    }

    /// When a cached value was stored; `nil` for a fresh one.
    public var date: Date? {
        switch self {
        case .fresh: nil
        case .cached(_, let date): date
        }
    }

    /// Whether the value came from the cache rather than from the network.
    public var isCached: Bool { date != nil }

    /// Transforms the value and keeps where it came from.
    public func map<T>(_ transform: (Value) throws -> T) rethrows -> CachedValue<T> {
        switch self {
        case .fresh(let value): .fresh(value: try transform(value))
        case .cached(let value, let date): .cached(value: try transform(value), date: date)
        }
    }
}

extension CachedValue: Sendable where Value: Sendable {}
extension CachedValue: Equatable where Value: Equatable {}
extension CachedValue: Hashable where Value: Hashable {}
