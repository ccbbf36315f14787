/// The tables of Swagger 2.0: every object kind, every key, as the user's 2.0 document has
/// them (the walk reads it before `Swagger2Document` converts it, so each warning quotes and
/// points at what the user wrote). `Swagger2Document` carries into the 3.0 tree only the keys
/// these tables know, so a key they call unknown is indeed left out.
extension OpenAPIKeywords {
    /// Why a 2.0 constraint on a parameter or items has no effect.
    private static let parameterDefault = "the server applies it when the parameter is not sent"

    /// Swagger 2.0.
    package static let v2 = OpenAPIKeywords(
        tables: v2Tables, root: .document, components: ["definitions", "parameters", "responses", "securityDefinitions"])

    /// The schema keywords of a 2.0 parameter, header or Items Object: mapped as their schema.
    private static func itemsKeywords(items: Value) -> [String: Entry] {
        merged(
            // An array's `collectionFormat` becomes its style; one with no 3.0 form is warned
            // about by the conversion, where it is written.
            mapped([("type", .leaf), ("format", .leaf), ("items", items), ("collectionFormat", .leaf), ("enum", .leaf)]),
            noEffect(
                [
                    "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
                    "minItems", "uniqueItems", "multipleOf",
                ], serverCheck),
            noEffect(["default"], parameterDefault))
    }

    private static let v2Tables: [Kind: Table] = [
        .document: Table(
            title: "a Swagger Object", schemaNames: [],
            keys: merged(
                mapped([
                    ("swagger", .leaf), ("info", .object(.info)), ("paths", .object(.paths)), ("tags", .array(.object(.tag))),
                    // The server every call goes to, and the media types of bodies and responses.
                    ("host", .leaf), ("basePath", .leaf), ("schemes", .leaf), ("consumes", .leaf), ("produces", .leaf),
                    ("definitions", .map(.object(.schema))), ("parameters", .map(.object(.parameter))),
                    ("responses", .map(.object(.response))),
                ]),
                noEffect(["security", "securityDefinitions"], credentials), noEffect(["externalDocs"], documentation))),
        .info: Table(
            title: "an Info Object", schemaNames: ["info"],
            keys: merged(
                mapped([("title", .leaf), ("description", .leaf)]), noEffect(["termsOfService", "contact", "license"], documentation),
                noEffect(["version"], "the version of the document, which no call sends"))),
        .contact: Table(title: "a Contact Object", schemaNames: ["contact"], keys: noEffect(["name", "url", "email"], documentation)),
        .license: Table(title: "a License Object", schemaNames: ["license"], keys: noEffect(["name", "url"], documentation)),
        .paths: Table(title: "a Paths Object", schemaNames: ["paths"], keys: [:], patterned: .paths(.object(.pathItem))),
        .pathItem: Table(
            title: "a Path Item Object", schemaNames: ["pathitem"],
            keys: mapped([
                ("$ref", .leaf), ("parameters", .array(.object(.parameter))), ("get", .object(.operation)), ("put", .object(.operation)),
                ("post", .object(.operation)), ("delete", .object(.operation)), ("options", .object(.operation)),
                ("head", .object(.operation)), ("patch", .object(.operation)),
            ])),
        .operation: Table(
            title: "an Operation Object", schemaNames: ["operation"],
            keys: merged(
                mapped([
                    ("tags", .leaf), ("summary", .leaf), ("description", .leaf), ("operationId", .leaf), ("consumes", .leaf),
                    ("produces", .leaf), ("parameters", .array(.object(.parameter))), ("responses", .object(.responses)),
                    // Left out with a warning of its own, naming the operation.
                    ("schemes", .leaf),
                ]),
                noEffect(["externalDocs"], documentation), noEffect(["deprecated"], "documentation: the method still calls the operation"),
                noEffect(["security"], credentials))),
        .externalDocumentation: Table(
            title: "an External Documentation Object", schemaNames: ["externaldocs"], keys: noEffect(["description", "url"], documentation)),
        .parameter: Table(
            title: "a Parameter Object", schemaNames: ["nonbodyparameter"],
            keys: merged(
                mapped([("name", .leaf), ("in", .leaf), ("required", .leaf)]), itemsKeywords(items: .object(.items)),
                noEffect(["description"], documentation),
                noEffect(["allowEmptyValue"], "the client sends the value it is given, an empty one too")),
            referable: true, variants: Variants(key: "in", kinds: ["body": .bodyParameter])),
        .bodyParameter: Table(
            title: "a body Parameter Object", schemaNames: ["bodyparameter"],
            keys: merged(
                mapped([("in", .leaf), ("required", .leaf), ("schema", .object(.schema))]), noEffect(["description"], documentation),
                noEffect(["name"], "a request body has no name on the wire; the generated method takes it as its `body` argument"))),
        .items: Table(title: "an Items Object", schemaNames: ["primitivesitems"], keys: itemsKeywords(items: .object(.items))),
        .responses: Table(
            title: "a Responses Object", schemaNames: ["responses"],
            keys: noEffect(["default"], "a call returns its success response; any other answer is an error carrying its status and body"),
            patterned: .statusCodes(.object(.response))),
        .response: Table(
            title: "a Response Object", schemaNames: ["response"],
            keys: merged(
                mapped([("schema", .object(.schema))]), noEffect(["description"], documentation), noEffect(["headers"], headers),
                // Whether or not the operation produces the media type an example is for.
                noEffect(["examples"], examples)),
            referable: true),
        .header: Table(
            title: "a Header Object", schemaNames: ["header"],
            keys: noEffect(
                [
                    "type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
                    "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum", "multipleOf", "description",
                ], headers)),
        .tag: Table(
            title: "a Tag Object", schemaNames: ["tag"],
            keys: merged(mapped([("name", .leaf), ("description", .leaf)]), noEffect(["externalDocs"], documentation))),
        .reference: Table(title: "a JSON Reference", schemaNames: ["jsonreference"], keys: mapped([("$ref", .leaf)])),
        // A 2.0 schema is carried into the 3.0 tree as it is (`x-nullable` as `nullable`, a
        // `discriminator` string as an object) and read as a 3.x one: 3.x's table, which holds
        // every 2.0 keyword (`fileSchema`'s too).
        .schema: Table(
            title: "a Schema Object", schemaNames: ["schema", "fileschema"], keys: v3Tables[.schema]?.keys ?? [:]),
        .discriminator: v3Tables[.discriminator] ?? Table(title: "a Discriminator Object", schemaNames: [], keys: [:]),
        .xml: Table(
            title: "an XML Object", schemaNames: ["xml"],
            keys: noEffect(["name", "namespace", "prefix", "attribute", "wrapped"], "cachegen reads and writes JSON, never XML")),
        .securityScheme: Table(
            title: "a Security Scheme Object",
            schemaNames: [
                "basicauthenticationsecurity", "apikeysecurity", "oauth2implicitsecurity", "oauth2passwordsecurity",
                "oauth2applicationsecurity", "oauth2accesscodesecurity",
            ],
            keys: noEffect(["type", "description", "name", "in", "flow", "scopes", "authorizationUrl", "tokenUrl"], credentials)),
    ]
}
