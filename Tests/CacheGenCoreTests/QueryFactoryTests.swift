import CacheGenCore
import Foundation
import Testing

/// `…Query(updating:…)`: generated for a cached endpoint with parameters, never for one
/// without, and clear of a parameter of its own name.
@Suite struct QueryFactoryTests {
    @Test func anEndpointWithParametersGetsAnUpdatingFactoryClearOfItsParameterNames() throws {
        let spec = #"""
        {
          "version": 1,
          "repositories": { "Search": { "endpoints": {
            "find": { "path": "/find", "query": { "query": "string", "query2": "int?" }, "response": "[string]",
                      "cache": { "ttl": "10m", "policy": "networkFirst" } },
            "all": { "path": "/all", "response": "[string]", "cache": { "ttl": "10m", "policy": "networkFirst" } }
          } } }
        }
        """#
        let output = Generator.generate(Data(spec.utf8), path: "Search.cachegen.json")
        #expect(output.diagnostics == [])
        let source = try #require(output.source)
        #expect(source.contains("""
                @MainActor
                public func findQuery(updating query3: CachedQuery<[String]>, query: String, query2: Int? = nil) {
                    query3.update { policy in try await self.find(query: query, query2: query2, policy: policy) }
                }
            """))
        #expect(source.contains("public func allQuery() -> CachedQuery<[String]>"))
        #expect(!source.contains("allQuery(updating"))
    }
}
