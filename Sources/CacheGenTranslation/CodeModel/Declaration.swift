/// One declaration.
package enum Declaration: Sendable, Hashable {
    case type(TypeDeclaration)
    case property(PropertyDeclaration)
    case function(FunctionDeclaration)
    case enumCase(EnumCaseDeclaration)
}

/// Who may see a declaration; the renderer maps the user's choice onto it.
package enum Visibility: Sendable, Hashable {
    /// `public` or nothing, per the generator's access option.
    case api
    /// `private`.
    case hidden
    /// No modifier: protocol requirements, enum cases, members of private types.
    case none
}
