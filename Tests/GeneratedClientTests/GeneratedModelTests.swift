@_spi(Generated) import CachedClientRuntime
import CachedClientTesting
import Foundation
import Testing

/// The shapes of generated models and mocks: names, enums, recursion, dates.
@Suite struct GeneratedModelTests {
    @Test func unknownEnumValuesDecodeInsteadOfFailing() throws {
        let decoder = JSONCoding().makeDecoder()
        let kinds = try decoder.decode([AccountKind].self, from: Data(#"["savings", "credit_card", "crypto"]"#.utf8))
        #expect(kinds == [.savings, .creditCard, .unknown("crypto")])
        #expect(kinds.map(\.rawValue) == ["savings", "credit_card", "crypto"])
        #expect(AccountKind.allCases == [.checking, .savings, .creditCard])
        let encoded = try JSONCoding().makeEncoder().encode(kinds)
        #expect(String(decoding: encoded, as: UTF8.self) == #"["savings","credit_card","crypto"]"#)
    }

    @Test func anEnumWithAValueNamedUnknownGetsAnotherCatchAll() throws {
        let values = try JSONCoding().makeDecoder().decode([Odd].self, from: Data(#"["unknown", "r&b", "polka"]"#.utf8))
        #expect(values == [.unknown, .rB, .undocumented("polka")])
    }

    @Test func keywordAndSymbolNamesKeepTheirWireNames() throws {
        let json = """
            {"default": "d", "private": true, "self": "s", "Type": "t", "in": 1.5, "+1": 1, "-1": -1,
             "@id": "x", "user.name": "u", "2fa": false, "kebab-case-name": "k", "HTTP_STATUS": 200}
            """
        let value = try JSONCoding().makeDecoder().decode(Keywords.self, from: Data(json.utf8))
        #expect(value.default == "d" && value.`self` == "s" && value.type == "t" && value.in == 1.5)
        #expect(value.plus1 == 1 && value.minus1 == -1 && value.id == "x" && value._2fa == false)
        #expect(value.public == nil && value.protocol == nil && value.firstName == nil)
        let roundTrip = try JSONCoding().makeDecoder().decode(
            Keywords.self, from: try JSONCoding().makeEncoder().encode(value))
        #expect(roundTrip == value)
    }

    @Test func recursiveModelsDecodeAndKeepValueSemantics() throws {
        let json = #"{"name": "Jazz", "parent": {"name": "Music", "children": []}, "children": [{"name": "Bebop", "children": []}]}"#
        var jazz = try JSONCoding().makeDecoder().decode(Category.self, from: Data(json.utf8))
        #expect(jazz.parent?.name == "Music")
        #expect(jazz.parent?.parent == nil)
        #expect(jazz.children.map(\.name) == ["Bebop"])
        let copy = jazz
        jazz.parent?.name = "Sound"
        #expect(copy.parent?.name == "Music")
        let encoded = String(decoding: try JSONCoding().makeEncoder().encode(copy), as: UTF8.self)
        #expect(encoded == #"{"children":[{"children":[],"name":"Bebop"}],"name":"Jazz","parent":{"children":[],"name":"Music"}}"#)
    }

    /// A chain deeper than the inline limit: `Level2.next` is boxed, and nothing shows it.
    @Test func deepChainsCodeCompareAndCopyAsIfInline() throws {
        let json = #"{"depth":1,"next":{"depth":2,"next":{"depth":3,"next":{"depth":4,"next":{"depth":5,"next":{"depth":6}}}}}}"#
        var chain = try JSONCoding().makeDecoder().decode(Level1.self, from: Data(json.utf8))
        let built = Level1(
            depth: 1, next: Level2(depth: 2, next: Level3(depth: 3, next: Level4(depth: 4, next: Level5(depth: 5, next: Level6(depth: 6))))))
        #expect(chain == built)
        #expect(chain.next?.next?.next?.next?.next?.depth == 6)
        #expect(String(decoding: try JSONCoding().makeEncoder().encode(chain), as: UTF8.self) == json)
        let copy = chain
        chain.next?.next?.depth = 30
        #expect(copy.next?.next?.depth == 3 && chain.next?.next?.depth == 30)
        #expect(chain != copy)
        let short = try JSONCoding().makeDecoder().decode(Level1.self, from: Data(#"{"depth":1,"next":{"depth":2}}"#.utf8))
        #expect(short.next?.next == nil)
        #expect(String(decoding: try JSONCoding().makeEncoder().encode(short), as: UTF8.self) == #"{"depth":1,"next":{"depth":2}}"#)
    }

    @Test func epochSecondDatesFromTheSpecDefaults() throws {
        let json = """
            {"matrix": [[1, 2], []], "nested": {"a": {"b": 1.5}}, "listOfOptionals": ["x", null],
             "when": 1795852800, "link": "https://example.com/a?b=c", "uid": "00000000-0000-0000-0000-000000000001",
             "byKind": {"k": "hip-hop"}}
            """
        let shapes = try JSONCoding(dates: .secondsSince1970).makeDecoder().decode(Shapes.self, from: Data(json.utf8))
        #expect(shapes.when == Date(timeIntervalSince1970: 1_795_852_800))
        #expect(shapes.matrix == [[1, 2], []] && shapes.optionalList == nil && shapes.listOfOptionals == ["x", nil])
        #expect(shapes.byKind["k"] == .hipHop)
    }

    @Test func mocksAnswerFromClosuresAndFailLoudlyWithoutOne() async throws {
        let account = Account(
            id: "a1", balance: 1, currency: "EUR", openedAt: Date(timeIntervalSince1970: 0), kind: .savings, tags: [],
            limits: [:])
        let mock: any AccountRepository = MockAccountRepository(getAccount: { id, policy in
            #expect(id == "a1")
            #expect(policy == .cacheFirst)
            return .cached(value: account, date: Date(timeIntervalSince1970: 60))
        })
        let value = try await mock.getAccount(id: "a1", policy: .cacheFirst)
        #expect(value == .cached(value: account, date: Date(timeIntervalSince1970: 60)))
        await #expect(throws: MockNotImplemented(endpoint: "AccountRepository.getProfile")) {
            try await mock.getProfile()
        }
        var streamed: [CachedValue<Account>] = []
        for try await update in MockAccountRepository(getAccount: { _, policy in
            #expect(policy == nil)
            return .fresh(value: account)
        }).getAccountStream(id: "a1") {
            streamed.append(update)
        }
        #expect(streamed == [.fresh(value: account)])
    }

    @Test func keywordNamedEndpointsAndParametersCallThrough() async throws {
        let transport = StubTransport(response: .json(#"{"default": "d", "private": false, "self": "s", "Type": "t", "in": 0, "+1": 0, "-1": 0, "@id": "i", "user.name": "u", "2fa": true, "kebab-case-name": "k", "HTTP_STATUS": 1}"#))
        let client = CachedClient(baseURL: URL(string: "https://edge.test")!, transport: transport)
        let repository = LiveEdgeRepository(client: client)
        _ = try await repository.default(
            in: 7, self: .rB, policyParameter: "p", bodyParameter: 3, protocol: [.hipHop, ._80s], xApiVersion: "9")
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://edge.test/items/7/r%26b?policy=p&body=3&protocol=hip-hop%2C80s")
        #expect(request.headers["X-Api-Version"] == "9")
    }
}
