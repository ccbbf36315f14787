/// A Swift expression, as a tree: the translator builds it, the renderer alone writes it.
///
/// Only the cases that hold an expression are `indirect`, so names and literals need no
/// allocation of their own.
package enum Expression: Sendable, Hashable {
    /// A name written as is: `policy`, `self`, `` `in` ``.
    case identifier(String)
    case literal(Literal)
    /// `base.name`.
    indirect case member(Expression, String)
    /// `.name`, the type inferred.
    case implicitMember(String)
    /// `\.name`, the root inferred.
    case keyPath(String)
    /// `base?`, to call or access a member through an optional.
    indirect case optionalChaining(Expression)
    /// `callee(label: value, …)`, then the trailing closure if any; with no arguments and a
    /// trailing closure, `callee { … }`.
    indirect case call(Expression, [Argument], trailingClosure: Closure? = nil, wrapping: Wrapping = .never)
    case closure(Closure)
    /// `[a, b]`.
    case array([Expression], wrapping: Wrapping = .never)
    /// `try expression`.
    indirect case `try`(Expression)
    /// `await expression`.
    indirect case await(Expression)
    /// `left operator right`: `contentType ?? "image/png"`.
    indirect case infix(Expression, String, Expression)

    /// A literal value; strings are escaped when written.
    package enum Literal: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case `nil`
    }

    /// One argument of a call, labelled or not.
    package struct Argument: Sendable, Hashable {
        package var label: String?
        package var value: Expression
    }

    /// `{ parameters in statements }`, always written on one line.
    package struct Closure: Sendable, Hashable {
        /// Parameter names; none means no `in`.
        package var parameters: [String] = []
        package var body: [Statement]
    }

    /// What a call or an array literal does when its line would pass the width.
    package enum Wrapping: Sendable, Hashable {
        /// It stays on one line, however long.
        case never
        /// One argument or element a line; elements themselves stay on one line each.
        case whenLong
    }

    /// `self`.
    package static let selfValue = Expression.identifier("self")

    /// A string literal.
    package static func string(_ text: String) -> Expression { .literal(.string(text)) }

    /// `self.name`.
    package func dot(_ name: String) -> Expression { .member(self, name) }
}
