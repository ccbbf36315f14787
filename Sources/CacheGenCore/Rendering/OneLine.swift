/// Types, expressions and statements written on one line, into any `TextSink`: the file, or a
/// counter that measures the line first. Closures always take this form.
enum OneLine {
    /// `expression` as a `String`.
    static func text(_ expression: Expression) -> String {
        var buffer = TextBuffer()
        write(expression, into: &buffer)
        return buffer.text
    }

    /// `type` as a `String`.
    static func text(_ type: SwiftType) -> String {
        var buffer = TextBuffer()
        write(type, into: &buffer)
        return buffer.text
    }

    static func write<Sink: TextSink>(_ expression: Expression, into sink: inout Sink) {
        switch expression {
        case .identifier(let name):
            sink.append(name)
        case .literal(let literal):
            switch literal {
            case .string(let text) where SwiftLiteral.needsNoEscaping(text):
                sink.append("\"")
                sink.append(text)
                sink.append("\"")
            case .string(let text): sink.append(SwiftLiteral.string(text))
            case .integer(let value): sink.append(String(value))
            case .boolean(let value): sink.append(value ? "true" : "false")
            case .nil: sink.append("nil")
            }
        case .member(let base, let name):
            write(base, into: &sink)
            sink.append(".")
            sink.append(name)
        case .implicitMember(let name):
            sink.append(".")
            sink.append(name)
        case .keyPath(let name):
            sink.append("\\.")
            sink.append(name)
        case .optionalChaining(let base):
            write(base, into: &sink)
            sink.append("?")
        case .call(let callee, let arguments, let trailingClosure, _):
            write(callee, into: &sink)
            if !arguments.isEmpty || trailingClosure == nil {
                sink.append("(")
                for (index, argument) in arguments.enumerated() {
                    if index > 0 { sink.append(", ") }
                    if let label = argument.label {
                        sink.append(label)
                        sink.append(": ")
                    }
                    write(argument.value, into: &sink)
                }
                sink.append(")")
            }
            if let trailingClosure {
                sink.append(" ")
                write(trailingClosure, into: &sink)
            }
        case .closure(let closure):
            write(closure, into: &sink)
        case .array(let elements, _):
            sink.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { sink.append(", ") }
                write(element, into: &sink)
            }
            sink.append("]")
        case .try(let operand):
            write(operand, after: "try ", into: &sink)
        case .await(let operand):
            write(operand, after: "await ", into: &sink)
        }
    }

    static func write<Sink: TextSink>(_ type: SwiftType, into sink: inout Sink) {
        switch type {
        case .named(let name):
            sink.append(name)
        case .generic(let name, let arguments):
            sink.append(name)
            sink.append("<")
            for (index, argument) in arguments.enumerated() {
                if index > 0 { sink.append(", ") }
                write(argument, into: &sink)
            }
            sink.append(">")
        case .existential(let name):
            sink.append("any ")
            sink.append(name)
        case .array(let element):
            sink.append("[")
            write(element, into: &sink)
            sink.append("]")
        case .dictionary(let key, let value):
            sink.append("[")
            write(key, into: &sink)
            sink.append(": ")
            write(value, into: &sink)
            sink.append("]")
        case .optional(let wrapped):
            write(wrapped, into: &sink)
            sink.append("?")
        case .function(let function):
            if function.isSendable { sink.append("@Sendable ") }
            sink.append("(")
            for (index, parameter) in function.parameters.enumerated() {
                if index > 0 { sink.append(", ") }
                sink.append("_ ")
                sink.append(parameter.name)
                sink.append(": ")
                write(parameter.type, into: &sink)
            }
            sink.append(")")
            if function.isAsync { sink.append(" async") }
            if function.isThrowing { sink.append(" throws") }
            sink.append(" -> ")
            write(function.result, into: &sink)
        case .escaping(let closure):
            sink.append("@escaping ")
            write(closure, into: &sink)
        }
    }

    /// `keyword expression`: `try`, `await`, `return`, `throw`.
    private static func write<Sink: TextSink>(_ expression: Expression, after keyword: String, into sink: inout Sink) {
        sink.append(keyword)
        write(expression, into: &sink)
    }

    /// `{ a, b in first; second }`.
    static func write<Sink: TextSink>(_ closure: Expression.Closure, into sink: inout Sink) {
        sink.append("{ ")
        if !closure.parameters.isEmpty {
            sink.append(closure.parameters.joined(separator: ", "))
            sink.append(" in ")
        }
        for (index, statement) in closure.body.enumerated() {
            if index > 0 { sink.append("; ") }
            write(statement, into: &sink)
        }
        sink.append(" }")
    }

    static func write<Sink: TextSink>(_ statement: Statement, into sink: inout Sink) {
        switch statement {
        case .expression(let expression):
            write(expression, into: &sink)
        case .variable(let isMutable, let name, let value):
            sink.append(isMutable ? "var " : "let ")
            sink.append(name)
            sink.append(" = ")
            write(value, into: &sink)
        case .assignment(let target, let value):
            write(target, into: &sink)
            sink.append(" = ")
            write(value, into: &sink)
        case .return(let value):
            write(value, after: "return ", into: &sink)
        case .throw(let error):
            write(error, after: "throw ", into: &sink)
        case .switchOver(let subject, let cases):
            sink.append("switch ")
            write(subject, into: &sink)
            sink.append(" {")
            for switchCase in cases {
                sink.append(" ")
                write(switchCase.pattern, into: &sink)
                for statement in switchCase.body {
                    sink.append(" ")
                    write(statement, into: &sink)
                }
            }
            sink.append(" }")
        }
    }

    /// `case pattern:`, or `default:` for none.
    static func write<Sink: TextSink>(_ pattern: Statement.Pattern?, into sink: inout Sink) {
        switch pattern {
        case nil:
            sink.append("default:")
        case .value(let value)?:
            sink.append("case ")
            write(value, into: &sink)
            sink.append(":")
        case .binding(let caseName, let variable)?:
            sink.append("case .")
            sink.append(caseName)
            sink.append("(let ")
            sink.append(variable)
            sink.append("):")
        }
    }
}
