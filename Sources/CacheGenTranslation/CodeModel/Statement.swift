/// A statement in a function body or a closure.
package enum Statement: Sendable, Hashable {
    case expression(Expression)
    /// `let name = value`, or `var` when mutable.
    case variable(isMutable: Bool, name: String, value: Expression)
    /// `target = value`.
    case assignment(Expression, Expression)
    case `return`(Expression)
    /// `return`, with no value.
    case returnVoid
    /// `if let name = try? value {`, or `if let name = try? value, condition {`, the body
    /// indented, `}`.
    case ifLetTry(name: String, value: Expression, condition: Expression? = nil, body: [Statement])
    case `throw`(Expression)
    /// `switch subject {`, each case level with it and its body indented, `}`.
    case switchOver(Expression, [SwitchCase])

    /// One case of a `switch`.
    package struct SwitchCase: Sendable, Hashable {
        /// `nil` for `default`.
        package var pattern: Pattern?
        package var body: [Statement]
    }

    /// What a switch case matches.
    package enum Pattern: Sendable, Hashable {
        /// A value: `"wire"`, `.name`.
        case value(Expression)
        /// An enum case binding its one associated value: `.name(let variable)`.
        case binding(caseName: String, variable: String)
    }
}
