import CacheGenCore
import Foundation
import Testing

/// `include` and `exclude`: exact located errors, and that only the chosen endpoints and
/// the models they reach are generated.
@Suite struct SelectionTests {
    /// Two repositories; `Owner` is reached only through `Account`, `Card` only through cards.
    static func spec(_ selection: String) -> String {
        #"""
        {
          "version": 1,
          \#(selection)
          "models": {
            "Account": { "properties": { "id": "string", "owner": "Owner?" } },
            "Owner": { "properties": { "name": "string" } },
            "Card": { "properties": { "number": "string" } },
            "Unused": { "properties": { "x": "int" } }
          },
          "repositories": {
            "AccountRepository": { "endpoints": {
              "getAccounts": { "path": "/accounts", "response": "[Account]" },
              "getAccount": { "path": "/accounts/{id}", "response": "Account" },
              "closeAccount": { "method": "DELETE", "path": "/accounts/{id}", "invalidates": ["getAccount", "getAccounts"] }
            } },
            "CardRepository": { "endpoints": {
              "getCards": { "path": "/cards", "response": "[Card]" }
            } }
          }
        }
        """#
    }

    /// The names of the generated types, and the invalidations written.
    static func generated(_ selection: String) throws -> (types: [String], invalidations: Int) {
        let output = Generator.generate(Data(spec(selection).utf8), path: "Bank.cachegen.json")
        let source = try #require(output.source, "\(output.diagnostics)")
        let types = source.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("public struct ") || line.hasPrefix("public protocol ") else { return nil }
            return String(line.split(separator: " ")[2].prefix { $0 != ":" })
        }
        return (types.sorted(), source.components(separatedBy: "Invalidation(").count - 1)
    }

    @Test func everythingWithoutASelection() throws {
        let result = try Self.generated("")
        #expect(result.types.contains("Unused") && result.types.contains("CardRepository"))
        #expect(result.invalidations == 2)
    }

    @Test func includeByRepositoryKeepsOnlyItsEndpointsAndTheModelsTheyReach() throws {
        let result = try Self.generated(#""include": { "repositories": ["AccountRepository"] },"#)
        #expect(
            result.types == [
                "Account", "AccountRepository", "LiveAccountRepository", "MockAccountRepository", "Owner",
            ])
        #expect(result.invalidations == 2)
    }

    @Test func includeByOperationAndPathThenExclude() throws {
        let result = try Self.generated(
            #""include": { "operations": ["getCards"], "paths": ["/accounts/"] }, "exclude": { "operations": ["getAccounts"] },"#)
        #expect(
            result.types == [
                "Account", "AccountRepository", "Card", "CardRepository", "LiveAccountRepository", "LiveCardRepository",
                "MockAccountRepository", "MockCardRepository", "Owner",
            ])
        // closeAccount no longer invalidates getAccounts, which is not generated.
        #expect(result.invalidations == 1)
    }

    @Test func excludeAlone() throws {
        let result = try Self.generated(#""exclude": { "paths": ["/accounts"] },"#)
        #expect(result.types == ["Card", "CardRepository", "LiveCardRepository", "MockCardRepository"])
    }

    @Test func pathsMatchWholeSegments() throws {
        let errors = diagnostics(Self.spec(#""include": { "paths": ["/account"] },"#))
        #expect(errors == [#"spec.json:3:26: error: "include" path "/account" starts no endpoint's path; did you mean "/accounts"?"#])
    }

    @Test func unknownNamesAreLocatedWithASuggestion() {
        let selection = #"""
        "include": { "repositories": ["AcountRepository", "Nothing"], "operations": ["getAcount", "zzzzzzzzzzzz"] },
          "exclude": { "paths": ["cards", "/cardz"], "tags": [] },
        """#
        #expect(
            diagnostics(Self.spec(selection)) == [
                #"spec.json:3:33: error: "include" names the repository "AcountRepository", which the spec does not have; did you mean "AccountRepository"?"#,
                #"spec.json:3:53: error: "include" names the repository "Nothing", which the spec does not have; the spec's repositories are "AccountRepository", "CardRepository""#,
                #"spec.json:3:80: error: "include" names the operation "getAcount", which no repository has; did you mean "getAccount"?"#,
                #"spec.json:3:93: error: "include" names the operation "zzzzzzzzzzzz", which no repository has; the spec's operations are "getAccounts", "getAccount", "closeAccount", "getCards""#,
                #"spec.json:4:26: error: "exclude" path "cards" must start with "/", as endpoint paths do"#,
                #"spec.json:4:35: error: "exclude" path "/cardz" starts no endpoint's path; did you mean "/cards"?"#,
                #"spec.json:4:46: error: unknown key "tags" in "exclude"; valid keys are "repositories", "operations", "paths""#,
            ])
    }

    @Test func aSelectionThatLeavesNothingIsAnError() {
        #expect(
            diagnostics(Self.spec(#""include": { "paths": ["/cards"] }, "exclude": { "repositories": ["CardRepository"] },"#)) == [
                #"spec.json:3:14: error: "include" and "exclude" leave no endpoint to generate; include more or exclude less"#
            ])
        // An unreadable filter says so, and only so: what it would leave is unknown.
        #expect(
            diagnostics(Self.spec(#""include": { "operations": "getCards" },"#)) == [
                #"spec.json:3:30: error: "include" "operations" must be an array of endpoint names; found a string"#
            ])
    }
}
