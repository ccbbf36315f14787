/// A stored, static or computed property.
package struct PropertyDeclaration: Sendable, Hashable {
    package var doc: DocComment = []
    /// Attributes such as `@Indirect`, written before the modifiers.
    package var attributes: [String] = []
    package var visibility: Visibility = .api
    package var isStatic = false
    package var isMutable = false
    package var name: String
    package var type: SwiftType?
    package var value: Expression?
    /// The getter of a computed property; `nil` for a stored one.
    package var getter: [Statement]?
}
