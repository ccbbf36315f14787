import Foundation

// The test-only fault hook every call of `POSIX` consults (`SystemCallFaults`), kept apart
// from the calls themselves: in production it is one load of a byte per call.
extension POSIX {
    /// A test's faults (`SystemCallFaults`), bound around a workload; `nil` in production.
    /// Read through `activeFaults`, never directly on a call's path.
    @TaskLocal package static var faults: SystemCallFaults?

    /// Whether any `SystemCallFaults` was made in this process: until one is (in production,
    /// never), a call costs one load of this byte and a branch, not a task-local lookup
    /// (some 25 ns, measured on Linux with -O).
    ///
    /// A plain byte, set once from 0 to 1 and never back, read without a lock as the removal
    /// counter's words are (see `RemovalCounter`): a thread that has not seen the 1 yet has no
    /// faults bound, since the test that binds them made its `SystemCallFaults` first.
    nonisolated(unsafe) fileprivate static let armed: UnsafeMutablePointer<UInt8> = {
        let byte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)  // never freed: one per process
        byte.initialize(to: 0)
        return byte
    }()

    /// Makes `activeFaults` look at the task-local from now on; `SystemCallFaults.init` calls it.
    package static func arm() {
        armed.pointee = 1
    }

    /// The faults bound to the current task, if any test armed them.
    @inline(__always)
    package static var activeFaults: SystemCallFaults? {
        guard armed.pointee != 0 else { return nil }
        return faults
    }

    /// The `errno` a test's faults make this call fail with, if any; one load of a byte
    /// in production.
    @inline(__always)
    package static func injectedFailure(_ operation: StaticString) -> Int32? {
        guard let faults = activeFaults else { return nil }
        if case .fail(let code) = faults.next(operation, isWrite: false) { return code }
        return nil
    }
}
