/// A type as a declaration uses it; the renderer alone writes it.
enum SwiftType: Sendable, Hashable {
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
    struct FunctionType: Sendable, Hashable {
        var parameters: [Parameter]
        var isSendable: Bool
        var isAsync: Bool
        var isThrowing: Bool
        var result: SwiftType
    }

    /// A closure parameter; its name is shown in the signature only (`_ name: Type`), for
    /// readers and autocomplete.
    struct Parameter: Sendable, Hashable {
        var name: String
        var type: SwiftType
    }

    /// `Void`.
    static let void = SwiftType.named("Void")
}
