#if canImport(Observation)
import Foundation

// Only real changes notify: `value` is set only when it differs from the one shown (for an
// `Equatable` value), and the derived queries hear of each new one.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension CachedQuery {
    /// Shows `new`, unless it equals the value shown (both `nil`, or equal by `Equatable`):
    /// then no observer is told. Tells the derived queries of a new one.
    package func setValue(_ new: Value?) {
        switch (value, new) {
        case (nil, nil): return
        case (let old?, let new?) where sameValue?(old, new) == true: return
        default: break
        }
        value = new
        if !selections.isEmpty { selections.removeAll { !$0(new) } }
    }
}

/// `==` for a type only known to be `Equatable` at run time (a generic `Value`).
package enum ValueEquality {
    /// `==` of `Value`, or `nil` when it is not `Equatable` (looked up once per query).
    package static func comparison<Value: Sendable>(for type: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
        guard type is any Equatable.Type else { return nil }
        return { lhs, rhs in
            guard let lhs = lhs as? any Equatable else { return false }
            return isEqual(lhs, rhs)
        }
    }

    private static func isEqual<Compared: Equatable>(_ lhs: Compared, _ rhs: Any) -> Bool {
        guard let rhs = rhs as? Compared else { return false }
        return lhs == rhs
    }
}
#endif
