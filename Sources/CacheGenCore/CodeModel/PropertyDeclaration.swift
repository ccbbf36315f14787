/// A stored, static or computed property.
struct PropertyDeclaration: Sendable, Hashable {
    var doc: DocComment = []
    /// Attributes such as `@Indirect`, written before the modifiers.
    var attributes: [String] = []
    var visibility: Visibility = .api
    var isStatic = false
    var isMutable = false
    var name: String
    var type: SwiftType?
    var value: Expression?
    /// The getter of a computed property; `nil` for a stored one.
    var getter: [Statement]?
}
