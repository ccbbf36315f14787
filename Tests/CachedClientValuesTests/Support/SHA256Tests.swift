import Foundation
import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// SHA-256 names every entry file and folder, so a wrong digest would strand every stored
/// entry; the vectors are FIPS 180-4's examples and digests of patterned bytes around the
/// block and padding boundaries, checked against Python's `hashlib`.
@Suite("SHA256")
struct SHA256Tests {
    /// Lengths around the block and padding boundaries (55, 56, 64, 119, 120 bytes).
    @Test(arguments: [
        (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (1, "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"),
        (55, "1deace58c745f3ecadde68a5923f494c3703fa73f0306483ccb898a5826e8d70"),
        (56, "06dbe23685750e4d3881ded95047abaf93fa8f9c5d3501dc57c717a72ff1398e"),
        (63, "47fb38b12335c9298d09280515c0666489a189d1554bb0ac1a0740806ce9d8b6"),
        (64, "dfa798724b1a8014994f363e5da7474ed26ce3757fb29e07aa47ad5a9352d37b"),
        (65, "dd2eab5a5507d7717c63ce953d9ac61752c21e664425ad1227054722a0d97f69"),
        (119, "c6e0f435df5d7d265baacca31e0602c00aa22fa6d3819aed664649294c743756"),
        (120, "17eb8960823a644bde3065620bb9d45931fe8993fd8eb692a17aff0fd725db6a"),
        (127, "2409a159329f4e770a7d8128130497abb1de01ffb6ad389d97d89ebbeeb7f02c"),
        (128, "3a9c1e22e20578eebe442238f431befd688bd56698eb7c77d95d3f97d8f58207"),
        (1000, "a9425c416f534025a4e2422bd14adba4ec3d4a68d10c3329be8df612964d2b6e"),
    ])
    func matchesReferenceDigests(length: Int, expected: String) {
        let bytes = (0..<length).map { UInt8(($0 * 7 + 3) % 251) }
        #expect(SHA256.hex(of: Data(bytes)) == expected)
        let digest = SHA256.digest(of: Data(bytes))
        #expect(digest.count == 32)
        #expect(digest.map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func textIsHashedAsItsUTF8() {
        #expect(SHA256.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: "é/ü") == "172f7ec3f2c56f87a09231f4aa5b774b3d34fc575cc38545d6f872d80f58d475")
    }
}
