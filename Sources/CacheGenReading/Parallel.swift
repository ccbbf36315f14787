import Dispatch
import Foundation

/// Work spread over every core, for the stages that can use them (the YAML reader's parts, the
/// files a document's `$ref`s name, the validator beside the translator, the output's shards):
/// `DispatchQueue.concurrentPerform` with results kept in order, so the output is the same
/// whatever the number of cores.
package enum Parallel {
    /// `first()` and `second()` at the same time, each on a core of its own when there are two.
    package static func both<First: Sendable, Second: Sendable>(
        _ first: @Sendable () -> First, _ second: @Sendable () -> Second
    ) -> (First, Second) {
        let results = Results<Either<First, Second>>(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(index == 0 ? .first(first()) : .second(second()), at: index)
        }
        let values = results.values
        guard case .first(let one)? = values[0], case .second(let two)? = values[1] else {
            preconditionFailure("concurrentPerform ran both")
        }
        return (one, two)
    }

    /// One of the two results of `both`.
    private enum Either<First: Sendable, Second: Sendable>: Sendable {
        case first(First)
        case second(Second)
    }

    /// `transform` of `0..<count` on every core, in order.
    package static func map<Value: Sendable>(count: Int, _ transform: @Sendable (Int) -> Value) -> [Value] {
        let results = Results<Value>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in results.set(transform(index), at: index) }
        return results.values.map { value in
            guard let value else { preconditionFailure("concurrentPerform ran every index") }
            return value
        }
    }

    /// One slot per index; `concurrentPerform` fills them from several threads.
    private final class Results<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Value?]

        package init(count: Int) { slots = Array(repeating: nil, count: count) }

        package func set(_ value: Value, at index: Int) {
            lock.lock()
            slots[index] = value
            lock.unlock()
        }

        package var values: [Value?] {
            lock.lock()
            defer { lock.unlock() }
            return slots
        }
    }
}
