/// A cut-down model of the Swift that cachegen writes: just enough structure that the
/// translator never formats text and `SwiftRenderer` alone decides how it is written.
package struct SwiftFile: Sendable, Hashable {
    /// Comment lines at the top, without `//`.
    package var header: [String]
    /// Imported modules, in order.
    package var imports: [Import]
    /// Top-level declarations, each preceded by an optional `// MARK: -` title.
    package var sections: [Section]

    /// One imported module, optionally with an SPI group (`@_spi(Generated) import …`) for the
    /// runtime's declarations that only generated code uses, or `@testable` for a module whose
    /// clients are internal.
    package struct Import: Sendable, Hashable {
        package var module: String
        package var spi: String? = nil
        package var isTestable = false

        /// The memberwise initializer, for the package's other modules.
        package init(module: String, spi: String? = nil, isTestable: Bool = false) {
            self.isTestable = isTestable
            self.module = module
            self.spi = spi
        }
    }

    /// A group of declarations under a `// MARK: -` line.
    package struct Section: Sendable, Hashable {
        package var title: String
        package var declarations: [Declaration]
    }
}

/// Doc comment lines, without `///`; empty lines become `///`.
package typealias DocComment = [String]
