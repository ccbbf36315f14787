import CacheGenSpec

/// A type as a declaration uses it; the renderer alone writes it.
package enum SwiftType: Sendable, Hashable {
    /// A type by name: `String`, `Account`, `CachePolicy`.
    case named(String)
    /// `Name<A, B>`.
    case generic(String, [SwiftType])
    /// `any Protocol`.
    case existential(String)
    /// `[Element]`.
    indirect case array(SwiftType)
    /// `[Key: Value]`.
    indirect case dictionary(key: SwiftType, value: SwiftType)
    /// `Wrapped?`.
    indirect case optional(SwiftType)
    /// A closure's type.
    indirect case function(FunctionType)
    /// `@escaping Type`: a closure parameter kept after the call returns.
    indirect case escaping(SwiftType)

    /// `@Sendable (_ name: Type, …) async throws -> Result`.
    package struct FunctionType: Sendable, Hashable {
        package var parameters: [Parameter]
        package var isSendable: Bool
        package var isAsync: Bool
        package var isThrowing: Bool
        package var result: SwiftType
    }

    /// A closure parameter; its name is shown in the signature only (`_ name: Type`), for
    /// readers and autocomplete.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var type: SwiftType
    }

    /// `Void`.
    package static let void = SwiftType.named("Void")
}
