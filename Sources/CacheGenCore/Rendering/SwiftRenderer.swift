/// Writes a `SwiftFile` as text. The one place that knows indentation, access modifiers,
/// doc comment and header syntax; the same model always gives the same bytes.
struct SwiftRenderer {
    /// The modifier written for `.api` declarations.
    var access: AccessLevel

    /// Renders a whole file, ending in one newline.
    func render(_ file: SwiftFile) -> String {
        var writer = LineWriter()
        for line in file.header { writer.write(line.isEmpty ? "//" : "// " + SwiftLiteral.commentSafe(line)) }
        writer.blank()
        for module in file.imports { writer.write("import \(module)") }
        for section in file.sections {
            writer.blank()
            writer.write("// MARK: - \(section.title)")
            for declaration in section.declarations {
                writer.blank()
                render(declaration, into: &writer)
            }
        }
        return writer.text
    }

    private func render(_ declaration: Declaration, into writer: inout LineWriter) {
        switch declaration {
        case .type(let type): render(type, into: &writer)
        case .property(let property): render(property, into: &writer)
        case .function(let function): render(function, into: &writer)
        case .enumCase(let enumCase):
            doc(enumCase.doc, into: &writer)
            writer.write("case \(enumCase.name)" + (enumCase.rawValue.map { " = \(SwiftLiteral.string($0))" } ?? ""))
        }
    }

    private func render(_ type: TypeDeclaration, into writer: inout LineWriter) {
        doc(type.doc, into: &writer)
        let conformances = type.conformances.isEmpty ? "" : ": " + type.conformances.joined(separator: ", ")
        // Extensions take no modifier: their members say their own.
        let modifier = type.kind == .extension ? "" : modifiers(type.visibility, isStatic: false)
        writer.write("\(modifier)\(type.kind.rawValue) \(type.name)\(conformances) {")
        writer.indented {
            var previous: Declaration?
            for member in type.members {
                if let previous, needsBlankLine(between: previous, and: member) { $0.blank() }
                render(member, into: &$0)
                previous = member
            }
        }
        writer.write("}")
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
        var text = property.attributes.map { $0 + " " }.joined()
        text += modifiers(property.visibility, isStatic: property.isStatic)
        text += property.isMutable || property.getter != nil ? "var " : "let "
        text += property.name
        if let type = property.type { text += ": \(type)" }
        if let getter = property.getter {
            writer.write(text + " {")
            writer.indented { inner in getter.forEach { render($0, into: &inner) } }
            return writer.write("}")
        }
        guard let value = property.value else { return writer.write(text) }
        render(value, prefix: text + " = ", into: &writer)
    }

    /// Writes an expression after `prefix`, on one line if it fits, else one argument a line.
    private func render(_ expression: Expression, prefix: String, suffix: String = "", into writer: inout LineWriter) {
        let flat = prefix + Self.flat(expression) + suffix
        guard !writer.fits(flat) else { return writer.write(flat) }
        if case .array(let elements) = expression, !elements.isEmpty {
            writer.write(prefix + "[")
            writer.indented { inner in
                for element in elements { render(element, prefix: "", suffix: ",", into: &inner) }
            }
            return writer.write("]" + suffix)
        }
        guard case .call(let callee, let arguments) = expression, !arguments.isEmpty else {
            return writer.write(flat)
        }
        writer.write(prefix + callee + "(")
        writer.indented { inner in
            for (index, argument) in arguments.enumerated() {
                let label = argument.label.map { "\($0): " } ?? ""
                render(argument.value, prefix: label, suffix: index == arguments.count - 1 ? "" : ",", into: &inner)
            }
        }
        writer.write(")" + suffix)
    }

    private static func flat(_ expression: Expression) -> String {
        switch expression {
        case .raw(let text): text
        case .call(let callee, let arguments):
            callee + "(" + arguments.map { ($0.label.map { "\($0): " } ?? "") + flat($0.value) }.joined(separator: ", ") + ")"
        case .array(let elements):
            "[" + elements.map(flat).joined(separator: ", ") + "]"
        }
    }

    private func render(_ function: FunctionDeclaration, into writer: inout LineWriter) {
        doc(function.doc, into: &writer)
        let parameters = function.parameters.map { parameter in
            var text = parameter.label.map { "\($0) " } ?? ""
            text += "\(parameter.name): \(parameter.type)"
            if let value = parameter.defaultValue { text += " = \(value)" }
            return text
        }
        let keyword = function.name == "init" ? "init" : "func \(function.name)"
        var signature = modifiers(function.visibility, isStatic: function.isStatic) + keyword
        let effects = (function.isAsync ? " async" : "") + (function.isThrowing ? " throws" : "")
        let result = function.returnType.map { " -> \($0)" } ?? ""
        let oneLine = signature + "(" + parameters.joined(separator: ", ") + ")" + effects + result
        let opening = function.body == nil ? "" : " {"
        if writer.fits(oneLine + opening) {
            signature = oneLine
            writer.write(signature + opening)
        } else {
            writer.write(signature + "(")
            writer.indented { inner in
                for (index, parameter) in parameters.enumerated() {
                    inner.write(parameter + (index == parameters.count - 1 ? "" : ","))
                }
            }
            writer.write(")" + effects + result + opening)
        }
        guard let body = function.body else { return }
        writer.indented { inner in body.forEach { render($0, into: &inner) } }
        writer.write("}")
    }

    private func render(_ statement: Statement, into writer: inout LineWriter) {
        switch statement {
        case .line(let text):
            writer.write(text)
        case .expression(let prefix, let expression):
            render(expression, prefix: prefix, into: &writer)
        case .block(let header, let body):
            writer.write(header + " {")
            writer.indented { inner in body.forEach { render($0, into: &inner) } }
            writer.write("}")
        case .switchOver(let subject, let cases):
            writer.write("switch \(subject) {")
            for (pattern, body) in cases {
                writer.write(pattern == "default" ? "default:" : "case \(pattern):")
                writer.indented { inner in body.forEach { render($0, into: &inner) } }
            }
            writer.write("}")
        }
    }

    private func doc(_ lines: DocComment, into writer: inout LineWriter) {
        for line in lines { writer.write(line.isEmpty ? "///" : "/// " + SwiftLiteral.commentSafe(line)) }
    }

    private func modifiers(_ visibility: Visibility, isStatic: Bool) -> String {
        var text = ""
        switch visibility {
        case .api: text = access == .public ? "public " : ""
        case .hidden: text = "private "
        case .none: text = ""
        }
        return text + (isStatic ? "static " : "")
    }
}

/// The access level of generated API.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Usable from other modules: a client library.
    case `public`
    /// Usable inside the module that generates it: an app target.
    case `internal`
}

/// Lines with indentation, so that no other code counts spaces.
private struct LineWriter {
    private(set) var lines: [String] = []
    private var depth = 0
    private static let indent = "    "
    private static let width = 120

    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func write(_ line: String) {
        lines.append(line.isEmpty ? "" : String(repeating: Self.indent, count: depth) + line)
    }

    /// Adds one empty line, never two in a row and never at the start of a block.
    mutating func blank() {
        guard let last = lines.last, !last.isEmpty, !last.hasSuffix("{") else { return }
        lines.append("")
    }

    func fits(_ line: String) -> Bool { depth * Self.indent.count + line.count <= Self.width }

    mutating func indented(_ body: (inout LineWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }
}
