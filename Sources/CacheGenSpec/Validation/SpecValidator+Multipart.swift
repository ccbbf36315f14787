import CacheGenReading

// `"format": "multipart"` reads each part of the response as a property of its type, by
// name, so the type must be an object model.
extension SpecValidator {
    package mutating func checkMultipartResponse(_ endpoint: EndpointSpec) {
        guard endpoint.responseFormat == .multipart, let type = endpoint.response else { return }
        if case .model(let name) = type {
            // An undeclared model is reported by the type check.
            guard let model = models[name] else { return }
            if case .object = model.kind { return }
        }
        report(
            "endpoint \(quoted(endpoint.name.name)) reads a multipart response as \(quoted(type.description)), which is not an object model; "
                + "its parts are read as the properties of one, by name",
            at: endpoint.responseLocation ?? endpoint.name.location)
    }
}
