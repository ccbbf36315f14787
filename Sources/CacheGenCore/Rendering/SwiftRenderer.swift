/// Writes a `SwiftFile` as text: the outline, then each section apart (so sections can be
/// rendered at the same time), joined in order. The one place that knows indentation,
/// access modifiers, doc comment and header syntax; the same model always gives the same
/// bytes.
struct SwiftRenderer: Sendable {
    /// The modifier written for `.api` declarations.
    var access: AccessLevel

    /// The header and imports of `file`, without its sections.
    func renderOutline(_ file: SwiftFile) -> String {
        var writer = LineWriter()
        for line in file.header { writer.write(line.isEmpty ? "//" : "// " + SwiftLiteral.commentSafe(line)) }
        writer.blank()
        for module in file.imports {
            writer.write(module.spi.map { "@_spi(\($0)) import \(module.module)" } ?? "import \(module.module)")
        }
        return writer.text
    }

    /// One section, starting with the empty line that separates it from what comes
    /// before; sections rendered apart and joined in order make the same text.
    func render(_ section: SwiftFile.Section) -> String {
        var writer = LineWriter()
        writer.write("")
        writer.write("// MARK: - \(section.title)")
        for declaration in section.declarations {
            writer.blank()
            render(declaration, into: &writer)
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
    ///
    /// The one-line form is measured before it is written, so no text is built twice.
    private func render(_ expression: Expression, prefix: String, suffix: String = "", into writer: inout LineWriter) {
        let fits = writer.fits(
            bytes: prefix.utf8.count + Flat.bytes(expression) + suffix.utf8.count,
            characters: prefix.characterCount + Flat.characters(expression) + suffix.characterCount)
        let wraps: Bool
        switch expression {
        case .raw: wraps = false
        case .call(_, let arguments): wraps = !arguments.isEmpty
        case .array(let elements): wraps = !elements.isEmpty
        }
        guard wraps, !fits else {
            writer.startLine()
            writer.append(prefix)
            Flat.write(expression, into: &writer)
            writer.append(suffix)
            return writer.endLine()
        }
        if case .array(let elements) = expression {
            writer.write(prefix + "[")
            writer.indented { inner in
                for element in elements { render(element, prefix: "", suffix: ",", into: &inner) }
            }
            return writer.write("]" + suffix)
        }
        guard case .call(let callee, let arguments) = expression else { return }
        writer.write(prefix + callee + "(")
        writer.indented { inner in
            for (index, argument) in arguments.enumerated() {
                let label = argument.label.map { "\($0): " } ?? ""
                render(argument.value, prefix: label, suffix: index == arguments.count - 1 ? "" : ",", into: &inner)
            }
        }
        writer.write(")" + suffix)
    }

    /// An expression on one line: measured, then written piece by piece.
    private enum Flat {
        static func bytes(_ expression: Expression) -> Int {
            measure(expression) { $0.utf8.count }
        }

        /// Characters, as `String.count` counts them in each piece.
        static func characters(_ expression: Expression) -> Int {
            measure(expression) { $0.characterCount }
        }

        private static func measure(_ expression: Expression, _ length: (String) -> Int) -> Int {
            switch expression {
            case .raw(let text):
                return length(text)
            case .call(let callee, let arguments):
                var total = length(callee) + 2 + max(arguments.count - 1, 0) * 2
                for argument in arguments {
                    if let label = argument.label { total += length(label) + 2 }
                    total += measure(argument.value, length)
                }
                return total
            case .array(let elements):
                var total = 2 + max(elements.count - 1, 0) * 2
                for element in elements { total += measure(element, length) }
                return total
            }
        }

        static func write(_ expression: Expression, into writer: inout LineWriter) {
            switch expression {
            case .raw(let text):
                writer.append(text)
            case .call(let callee, let arguments):
                writer.append(callee)
                writer.append("(")
                for (index, argument) in arguments.enumerated() {
                    if index > 0 { writer.append(", ") }
                    if let label = argument.label {
                        writer.append(label)
                        writer.append(": ")
                    }
                    write(argument.value, into: &writer)
                }
                writer.append(")")
            case .array(let elements):
                writer.append("[")
                for (index, element) in elements.enumerated() {
                    if index > 0 { writer.append(", ") }
                    write(element, into: &writer)
                }
                writer.append("]")
            }
        }
    }

    private func render(_ function: FunctionDeclaration, into writer: inout LineWriter) {
        doc(function.doc, into: &writer)
        let modifiers = modifiers(function.visibility, isStatic: function.isStatic)
        let keyword = function.name == "init" ? "init" : "func "
        let name = function.name == "init" ? "" : function.name
        let effects = function.isAsync ? (function.isThrowing ? " async throws" : " async") : (function.isThrowing ? " throws" : "")
        let arrow = function.returnType == nil ? "" : " -> "
        let result = function.returnType ?? ""
        let opening = function.body == nil ? "" : " {"
        let separators = max(function.parameters.count - 1, 0) * 2
        let fixed = [modifiers, keyword, name, effects, arrow, result, opening]
        let fits = writer.fits(
            bytes: fixed.reduce(2 + separators) { $0 + $1.utf8.count }
                + function.parameters.reduce(0) { $0 + Self.measure($1) { $0.utf8.count } },
            characters: fixed.reduce(2 + separators) { $0 + $1.characterCount }
                + function.parameters.reduce(0) { $0 + Self.measure($1) { $0.characterCount } })
        writer.startLine()
        writer.append(modifiers)
        writer.append(keyword)
        writer.append(name)
        writer.append("(")
        if fits {
            for (index, parameter) in function.parameters.enumerated() {
                if index > 0 { writer.append(", ") }
                Self.write(parameter, into: &writer)
            }
        } else {
            writer.endLine()
            writer.indented { inner in
                for (index, parameter) in function.parameters.enumerated() {
                    inner.startLine()
                    Self.write(parameter, into: &inner)
                    if index < function.parameters.count - 1 { inner.append(",") }
                    inner.endLine()
                }
            }
            writer.startLine()
        }
        writer.append(")")
        writer.append(effects)
        writer.append(arrow)
        writer.append(result)
        writer.append(opening)
        writer.endLine()
        guard let body = function.body else { return }
        writer.indented { inner in body.forEach { render($0, into: &inner) } }
        writer.write("}")
    }

    /// `label name: Type = value`, measured piece by piece.
    private static func measure(_ parameter: FunctionDeclaration.Parameter, _ length: (String) -> Int) -> Int {
        var total = length(parameter.name) + 2 + length(parameter.type)
        if let label = parameter.label { total += length(label) + 1 }
        if let value = parameter.defaultValue { total += 3 + length(value) }
        return total
    }

    private static func write(_ parameter: FunctionDeclaration.Parameter, into writer: inout LineWriter) {
        if let label = parameter.label {
            writer.append(label)
            writer.append(" ")
        }
        writer.append(parameter.name)
        writer.append(": ")
        writer.append(parameter.type)
        if let value = parameter.defaultValue {
            writer.append(" = ")
            writer.append(value)
        }
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

/// Lines with indentation, so that no other code counts spaces. Writes UTF-8 bytes
/// straight into one buffer (appending to a `String` piece by piece costs several times
/// more), made into the file's text once at the end.
private struct LineWriter {
    private var bytes: [UInt8] = []
    private var depth = 0
    /// What the last line was, for `blank()`.
    private var last = Last.nothing
    private static let indent = 4
    private static let width = 120

    private enum Last {
        case nothing, blank, opening, other
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes one whole line; an empty one has no indentation.
    mutating func write(_ line: String) {
        guard !line.isEmpty else {
            bytes.append(UInt8(ascii: "\n"))
            last = .blank
            return
        }
        startLine()
        append(line)
        endLine()
    }

    /// Starts a line that `append(_:)` fills and `endLine()` ends.
    mutating func startLine() {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * Self.indent))
    }

    mutating func append(_ piece: String) {
        bytes.append(contentsOf: piece.utf8)
    }

    mutating func endLine() {
        last = bytes.last == UInt8(ascii: "{") ? .opening : .other
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Adds one empty line, never two in a row and never at the start of a block.
    mutating func blank() {
        guard last == .other else { return }
        bytes.append(UInt8(ascii: "\n"))
        last = .blank
    }

    /// Whether a line of `bytes` UTF-8 bytes fits in the width at the current depth; the
    /// width counts characters, computed only when the bytes alone do not settle it.
    func fits(bytes: Int, characters: @autoclosure () -> Int) -> Bool {
        let room = Self.width - depth * Self.indent
        return bytes <= room || characters() <= room
    }

    mutating func indented(_ body: (inout LineWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }
}

extension String {
    /// `count`, without grapheme breaking when the text is ASCII (nearly always).
    fileprivate var characterCount: Int {
        let ascii = utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
        return ascii == true ? utf8.count : count
    }
}
