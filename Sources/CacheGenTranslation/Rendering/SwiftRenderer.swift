/// Writes a `SwiftFile` as text: the outline, then each section apart (so sections can be
/// rendered at the same time), joined in order. The one place that knows indentation,
/// access modifiers, doc comment, header and expression syntax; the same model always
/// gives the same bytes.
package struct SwiftRenderer: Sendable {
    /// The modifier written for `.api` declarations.
    package var access: AccessLevel

    /// The header and imports of `file`, without its sections; no blank line ends a file
    /// without imports.
    package func renderOutline(_ file: SwiftFile) -> String {
        var writer = LineWriter()
        for line in file.header { writer.write(line.isEmpty ? "//" : "// " + SwiftLiteral.commentSafe(line)) }
        guard !file.imports.isEmpty else { return writer.text }
        writer.blank()
        for module in file.imports {
            let attribute = module.spi.map { "@_spi(\($0)) " } ?? (module.isTestable ? "@testable " : "")
            writer.write(attribute + "import " + module.module)
        }
        return writer.text
    }

    /// One section, starting with the empty line that separates it from what comes
    /// before; sections rendered apart and joined in order make the same text.
    package func render(_ section: SwiftFile.Section) -> String {
        var writer = LineWriter()
        writer.write("")
        writer.write("// MARK: - \(section.title)")
        for declaration in section.declarations {
            writer.blank()
            render(declaration, into: &writer)
        }
        return writer.text
    }

    package func render(_ declaration: Declaration, into writer: inout LineWriter) {
        switch declaration {
        case .type(let type): render(type, into: &writer)
        case .property(let property): render(property, into: &writer)
        case .function(let function): render(function, into: &writer)
        case .enumCase(let enumCase):
            doc(enumCase.doc, into: &writer)
            writer.startLine()
            writer.append("case ")
            writer.append(enumCase.name)
            if let associated = enumCase.associatedType {
                writer.append("(")
                OneLine.write(associated, into: &writer)
                writer.append(")")
            }
            if let rawValue = enumCase.rawValue {
                writer.append(" = ")
                writer.append(SwiftLiteral.string(rawValue))
            }
            writer.endLine()
        }
    }

    private func render(_ type: TypeDeclaration, into writer: inout LineWriter) {
        if let condition = type.condition { writer.write("#if \(condition)") }
        doc(type.doc, into: &writer)
        for attribute in type.attributes { writer.write(attribute) }
        let conformances = type.conformances.isEmpty ? "" : ": " + type.conformances.joined(separator: ", ")
        // Extensions take no modifier: their members say their own.
        let modifier = type.kind == .extension ? "" : modifiers(type.visibility, isStatic: false)
        let indirect = type.isIndirect ? "indirect " : ""
        writer.write("\(modifier)\(indirect)\(type.kind.rawValue) \(type.name)\(conformances) {")
        writer.indented {
            var previous: Declaration?
            for member in type.members {
                if let previous, needsBlankLine(between: previous, and: member) { $0.blank() }
                render(member, into: &$0)
                previous = member
            }
        }
        writer.write("}")
        if type.condition != nil { writer.write("#endif") }
    }

    /// Cases and stored properties sit together; anything with a body or a doc comment
    /// gets room.
    private func needsBlankLine(between previous: Declaration, and next: Declaration) -> Bool {
        switch (previous, next) {
        case (.enumCase, .enumCase): false
        case (.property(let a), .property(let b)): !(a.doc.isEmpty && b.doc.isEmpty)
        case (.function(let a), .function(let b)): a.body != nil || b.body != nil || !b.doc.isEmpty
        default: true
        }
    }

    private func render(_ property: PropertyDeclaration, into writer: inout LineWriter) {
        doc(property.doc, into: &writer)
        if let value = property.value {
            var declaration = TextBuffer()
            writeDeclaration(property, into: &declaration)
            return render(value, prefix: declaration.text + " = ", into: &writer)
        }
        if let getter = property.getter, getter.count == 1, case .expression(.literal(let literal)) = getter[0] {
            // `static var name: String { "…" }`: a getter that only gives a literal fits one line.
            var declaration = TextBuffer()
            writeDeclaration(property, into: &declaration)
            return render(.literal(literal), prefix: declaration.text + " { ", suffix: " }", into: &writer)
        }
        writer.startLine()
        writeDeclaration(property, into: &writer)
        guard let getter = property.getter else { return writer.endLine() }
        writer.append(" {")
        writer.endLine()
        if let setter = property.setter, let get = getter.first {
            // `get { … }` and `set { … }`, a line each.
            writer.indented { inner in
                for (accessor, statement) in [("get", get), ("set", setter)] {
                    inner.startLine()
                    inner.append(accessor + " { ")
                    OneLine.write(statement, into: &inner)
                    inner.append(" }")
                    inner.endLine()
                }
            }
        } else {
            writer.indented { inner in getter.forEach { render($0, into: &inner) } }
        }
        writer.write("}")
    }

    /// `modifiers var name: Type`, without the value or getter.
    private func writeDeclaration<Sink: TextSink>(_ property: PropertyDeclaration, into sink: inout Sink) {
        sink.append(modifiers(property.visibility, isStatic: property.isStatic))
        sink.append(property.isMutable || property.getter != nil ? "var " : "let ")
        sink.append(property.name)
        if let type = property.type {
            sink.append(": ")
            OneLine.write(type, into: &sink)
        }
    }

    package func doc(_ lines: DocComment, into writer: inout LineWriter) {
        for line in lines {
            // Written in two pieces rather than as one string joined first: a large document
            // has tens of thousands of doc lines.
            writer.startLine()
            writer.append(syntax: line.isEmpty ? "///" : "/// ")
            if !line.isEmpty { writer.append(SwiftLiteral.commentSafe(line)) }
            writer.endLine()
        }
    }

    package func modifiers(_ visibility: Visibility, isStatic: Bool) -> String {
        var text = ""
        switch visibility {
        case .api: text = access == .public ? "public " : ""
        case .hidden: text = "private "
        case .none: text = ""
        }
        return text + (isStatic ? "static " : "")
    }

    /// The memberwise initializer, for the package's other modules.
    package init(access: AccessLevel) {
        self.access = access
    }
}
