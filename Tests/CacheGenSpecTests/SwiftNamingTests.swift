import CacheGenSpec
import Testing

/// Spec names become safe Swift identifiers; wire names are never touched.
@Suite struct SwiftNamingTests {
    @Test(arguments: [
        ("per_page", "perPage"), ("openedAt", "openedAt"), ("receiptURL", "receiptURL"), ("X-Api-Version", "xApiVersion"),
        ("HTTP_STATUS", "httpStatus"), ("image-caption", "imageCaption"), ("80s", "_80s"), ("r&b", "rB"),
        ("+1", "plus1"), ("-1", "minus1"), ("@id", "id"), ("user.name", "userName"), ("first name", "firstName"),
        ("URLString", "urlString"), ("", "_"),
    ])
    func memberNames(_ spec: String, _ swift: String) {
        #expect(SwiftNaming.memberName(spec) == swift)
    }

    @Test(arguments: [
        ("account_kind", "AccountKind"), ("AccountKind", "AccountKind"), ("news-item", "NewsItem"), ("3d", "_3d"),
    ])
    func typeNames(_ spec: String, _ swift: String) {
        #expect(SwiftNaming.typeName(spec) == swift)
    }

    @Test func keywordsAreEscaped() {
        for keyword in ["default", "private", "public", "self", "Type", "protocol", "in"] {
            #expect(SwiftNaming.escaped(keyword) == "`\(keyword)`")
        }
        #expect(SwiftNaming.escaped("value") == "value")
    }

    @Test func argumentsNamedLikeGeneratedArgumentsGetASuffix() {
        #expect(SwiftNaming.argumentName("policy") == "policyParameter")
        #expect(SwiftNaming.argumentName("body") == "bodyParameter")
        #expect(SwiftNaming.argumentName("page") == "page")
    }

    @Test func snakeCaseForWireNames() {
        #expect(SwiftNaming.snakeCase("openedAt") == "opened_at")
        #expect(SwiftNaming.snakeCase("receiptURL") == "receipt_url")
    }
}
