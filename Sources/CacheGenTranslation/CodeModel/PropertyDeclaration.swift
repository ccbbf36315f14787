/// A stored, static or computed property.
package struct PropertyDeclaration: Sendable, Hashable {
    package var doc: DocComment = []
    package var visibility: Visibility = .api
    package var isStatic = false
    package var isMutable = false
    package var name: String
    package var type: SwiftType?
    package var value: Expression?
    /// The getter of a computed property; `nil` for a stored one.
    package var getter: [Statement]?
    /// The setter of a computed property, one statement using `newValue`; `nil` for a
    /// read-only one. With a setter, the getter is one statement too.
    package var setter: Statement?
}
