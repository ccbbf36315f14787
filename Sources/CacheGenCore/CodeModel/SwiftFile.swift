/// A cut-down model of the Swift that cachegen writes: just enough structure that the
/// translator never formats text and `SwiftRenderer` alone decides how it is written.
struct SwiftFile: Sendable, Hashable {
    /// Comment lines at the top, without `//`.
    var header: [String]
    /// Imported modules, in order.
    var imports: [Import]
    /// Top-level declarations, each preceded by an optional `// MARK: -` title.
    var sections: [Section]

    /// One imported module, optionally with an SPI group (`@_spi(Generated) import …`) for the
    /// runtime's declarations that only generated code uses, or `@testable` for a module whose
    /// clients are internal.
    struct Import: Sendable, Hashable {
        var module: String
        var spi: String? = nil
        var isTestable = false
    }

    /// A group of declarations under a `// MARK: -` line.
    struct Section: Sendable, Hashable {
        var title: String
        var declarations: [Declaration]
    }
}

/// Doc comment lines, without `///`; empty lines become `///`.
typealias DocComment = [String]
