import Foundation
import Testing

import CachedClientHTTP
import CachedClientStore
@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// `LinkHeader`: the `Link` field (RFC 8288) as paging reads it.
@Suite struct LinkHeaderTests {
    let base = URL(string: "https://api.example.com/v1/items?page=1")!

    @Test func githubStyleFieldsGiveTheNextTarget() {
        let field = #"<https://api.example.com/v1/items?page=2>; rel="next", <https://api.example.com/v1/items?page=9>; rel="last""#
        #expect(LinkHeader.target(ofRelation: "next", in: field, base: base)?.absoluteString == "https://api.example.com/v1/items?page=2")
        #expect(LinkHeader.target(ofRelation: "last", in: field, base: base)?.absoluteString == "https://api.example.com/v1/items?page=9")
        #expect(LinkHeader.target(ofRelation: "prev", in: field, base: base) == nil)
    }

    @Test func relationListsUnquotedValuesCaseAndCommasInTheTarget() {
        #expect(LinkHeader.links(in: #"<a?x=1,2;3>; rel="next last"; title="a, b""#) == [.init(target: "a?x=1,2;3", relations: ["next", "last"])])
        #expect(LinkHeader.target(ofRelation: "next", in: "</v1/items?page=3>; REL=NEXT", base: base)?.absoluteString
            == "https://api.example.com/v1/items?page=3")
        #expect(LinkHeader.target(ofRelation: "next", in: "<items?page=4>;rel=next", base: base)?.absoluteString
            == "https://api.example.com/v1/items?page=4")
    }

    @Test func malformedFieldsKeepWhatWasReadBefore() {
        #expect(LinkHeader.links(in: "").isEmpty)
        #expect(LinkHeader.links(in: "garbage").isEmpty)
        #expect(LinkHeader.links(in: #"<a>; rel="next", <b; rel="last""#) == [.init(target: "a", relations: ["next"])])
        #expect(LinkHeader.links(in: #"<a>; rel="unterminated"#).isEmpty)
    }
}
