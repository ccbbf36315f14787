import CacheGenReading

/// Paging rules: a GET with a response, parameters the endpoint has, a cursor that is in the
/// response model, and every page under its own key.
extension SpecValidator {
    package mutating func checkPaging(_ endpoint: EndpointSpec) {
        guard let paging = endpoint.paging else { return }
        let name = quoted(endpoint.name.name)
        guard endpoint.method == "GET" else {
            report("\"paging\" needs a GET endpoint; \(name) is a \(endpoint.method)", at: paging.location)
            return
        }
        guard let response = endpoint.response else {
            report("\"paging\" needs a \"response\"; \(name) has none", at: paging.location)
            return
        }
        guard endpoint.returnsValue else {
            report(
                "\"paging\" needs one JSON value per page; \(name) streams its response (\"format\": \"\(endpoint.responseFormat.rawValue)\")",
                at: paging.location)
            return
        }
        let query = endpoint.parameters.filter { $0.place == .query }
        for named in paging.parameters {
            guard let parameter = query.first(where: { $0.name.name == named.name }) else {
                let hint = query.isEmpty
                    ? "; declare it under \"query\""
                    : Suggestion.hint(for: named.name, among: query.map(\.name.name), noun: "query parameters")
                report("\"paging\" names \(quoted(named.name)), which is not a query parameter of \(name)" + hint, at: named.location)
                continue
            }
            if let key = endpoint.cache?.key, !key.contains(where: { $0.name == named.name }) {
                report(
                    "\"key\" of \(name) leaves out paging parameter \(quoted(named.name)); add it, or every page would share one entry",
                    at: endpoint.cache?.location ?? named.location)
            }
            let isNumber: Bool
            if case .cursor = paging.kind { isNumber = false } else { isNumber = true }
            let type = parameter.type.unwrapped
            if isNumber, type != .scalar(.int) {
                report("paging parameter \(quoted(named.name)) of \(name) must be an int; found \(parameter.type)", at: parameter.typeLocation)
            } else if !isNumber, type != .scalar(.string), type != .scalar(.int) {
                report("cursor parameter \(quoted(named.name)) of \(name) must be a string or an int; found \(parameter.type)", at: parameter.typeLocation)
            } else if !isNumber, !parameter.type.isOptional {
                report(
                    "cursor parameter \(quoted(named.name)) of \(name) must be optional (\(parameter.type)?): the first page is asked for without it",
                    at: parameter.typeLocation)
            }
        }
        switch paging.kind {
        case .link:
            return
        case .page, .offset:
            guard case .array = response.unwrapped else {
                report(
                    "page and offset paging need a response that is an array, to know when a page is the last; \(name) returns \(response)",
                    at: paging.location)
                return
            }
        case .cursor(let path, _):
            checkCursorPath(path, in: response, of: name, at: paging.responseLocation)
        }
    }

    /// Each step of the path is a property (by JSON or spec name) of an object model, and the
    /// last one a string or an int.
    private mutating func checkCursorPath(_ path: [String], in response: TypeRef, of name: String, at location: SourceLocation) {
        var type = response
        var walked: [String] = []
        for step in path {
            guard case .model(let modelName) = type.unwrapped, let model = models[modelName],
                case .object(let properties) = model.kind
            else {
                let place = walked.isEmpty ? "the response of \(name) (\(response))" : quoted(walked.joined(separator: "."))
                report("cursor path \(quoted(path.joined(separator: "."))) is not in the response model: \(place) is not an object model", at: location)
                return
            }
            guard let property = properties.first(where: { $0.wireName == step || $0.name.name == step }) else {
                report(
                    "cursor path \(quoted(path.joined(separator: "."))) is not in the response model: \(modelName) has no property \(quoted(step))"
                        + Suggestion.hint(for: step, among: properties.map(\.wireName), noun: "properties"),
                    at: location)
                return
            }
            walked.append(step)
            type = property.type
        }
        let last = type.unwrapped
        if last != .scalar(.string), last != .scalar(.int) {
            report("cursor path \(quoted(path.joined(separator: "."))) of \(name) must end at a string or an int; found \(type)", at: location)
        }
    }
}
