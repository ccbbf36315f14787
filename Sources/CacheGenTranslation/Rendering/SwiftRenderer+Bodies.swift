/// Statements a line each, and the one layout choice inside them: a call or array literal
/// that may wrap goes one argument (or element) a line when its line would pass the width.
extension SwiftRenderer {
    package func render(_ statement: Statement, into writer: inout LineWriter) {
        switch statement {
        case .expression(let expression) where expression.mayWrap:
            render(expression, prefix: "", into: &writer)
        case .variable(let isMutable, let name, let value) where value.mayWrap:
            render(value, prefix: (isMutable ? "var " : "let ") + name + " = ", into: &writer)
        case .assignment(let target, let value) where value.mayWrap:
            render(value, prefix: OneLine.text(target) + " = ", into: &writer)
        case .return(let value) where value.mayWrap:
            render(value, prefix: "return ", into: &writer)
        case .throw(let error) where error.mayWrap:
            render(error, prefix: "throw ", into: &writer)
        case .ifLetTry(let name, let value, let condition, let body):
            writer.startLine()
            writer.append("if let " + name + " = try? ")
            OneLine.write(value, into: &writer)
            if let condition {
                writer.append(", ")
                OneLine.write(condition, into: &writer)
            }
            writer.append(" {")
            writer.endLine()
            writer.indented { inner in body.forEach { render($0, into: &inner) } }
            writer.write("}")
        case .switchOver(let subject, let cases):
            writer.startLine()
            writer.append("switch ")
            OneLine.write(subject, into: &writer)
            writer.append(" {")
            writer.endLine()
            for switchCase in cases {
                writer.startLine()
                OneLine.write(switchCase.pattern, into: &writer)
                writer.endLine()
                writer.indented { inner in switchCase.body.forEach { render($0, into: &inner) } }
            }
            writer.write("}")
        default:
            writer.startLine()
            OneLine.write(statement, into: &writer)
            writer.endLine()
        }
    }

    /// Writes an expression after `prefix`, on one line if it fits or may not wrap, else
    /// one argument or element a line.
    package func render(_ expression: Expression, prefix: String, suffix: String = "", into writer: inout LineWriter) {
        switch expression {
        case _ where !expression.mayWrap:
            break
        case .try(let operand):
            return render(operand, prefix: prefix + "try ", suffix: suffix, into: &writer)
        case .await(let operand):
            return render(operand, prefix: prefix + "await ", suffix: suffix, into: &writer)
        default:
            // A call or an array literal that may wrap.
            if !fits(expression, prefix: prefix, suffix: suffix, in: writer) {
                return wrap(expression, prefix: prefix, suffix: suffix, into: &writer)
            }
        }
        writer.startLine()
        writer.append(prefix)
        OneLine.write(expression, into: &writer)
        writer.append(suffix)
        writer.endLine()
    }

    /// Whether the one-line form fits, measured before anything is written.
    private func fits(_ expression: Expression, prefix: String, suffix: String, in writer: LineWriter) -> Bool {
        writer.fits(
            bytes: Self.measure(prefix, expression, suffix, LineLength(.bytes, limit: writer.room)),
            characters: Self.measure(prefix, expression, suffix, LineLength(.characters, limit: writer.room)))
    }

    private static func measure(_ prefix: String, _ expression: Expression, _ suffix: String, _ length: LineLength) -> Int {
        var count = length
        count.append(prefix)
        OneLine.write(expression, into: &count)
        count.append(suffix)
        return count.total
    }

    private func wrap(_ expression: Expression, prefix: String, suffix: String, into writer: inout LineWriter) {
        writer.startLine()
        writer.append(prefix)
        switch expression {
        case .array(let elements, _):
            writer.append("[")
            writer.endLine()
            writer.indented { inner in
                for element in elements {
                    inner.startLine()
                    OneLine.write(element, into: &inner)
                    inner.append(",")
                    inner.endLine()
                }
            }
            writer.write("]" + suffix)
        case .call(let callee, let arguments, let trailingClosure, _):
            OneLine.write(callee, into: &writer)
            writer.append("(")
            writer.endLine()
            writer.indented { inner in
                for (index, argument) in arguments.enumerated() {
                    let label = argument.label.map { "\($0): " } ?? ""
                    render(argument.value, prefix: label, suffix: index == arguments.count - 1 ? "" : ",", into: &inner)
                }
            }
            writer.startLine()
            writer.append(")")
            if let trailingClosure {
                writer.append(" ")
                OneLine.write(trailingClosure, into: &writer)
            }
            writer.append(suffix)
            writer.endLine()
        default:
            OneLine.write(expression, into: &writer)
            writer.append(suffix)
            writer.endLine()
        }
    }
}

extension Expression {
    /// Whether the renderer may write this expression on more than one line.
    fileprivate var mayWrap: Bool {
        switch self {
        case .call(_, let arguments, _, .whenLong): !arguments.isEmpty
        case .array(let elements, .whenLong): !elements.isEmpty
        case .try(let operand), .await(let operand): operand.mayWrap
        default: false
        }
    }
}
