import Foundation
import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

/// XXH64 is the checksum of every entry file, so a wrong value would turn every stored
/// entry into a miss. The values are those of the reference implementation (Python's
/// `xxhash`, which wraps it), for inputs that reach each branch: empty, the 1-, 4- and
/// 8-byte tails, just under, at and over one 32-byte stripe, and several stripes.
@Suite("XXH64")
struct XXH64Tests {
    @Test(arguments: [
        ("", 0xEF46_DB37_51D8_E999),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("abcd", 0xDE03_27B0_D25D_92CC),
        ("abcdefgh", 0x3AD3_5177_5B46_34B7),
        ("0123456789abcdef0123456789abcde", 0x1FDF_C63F_EBAC_FDE7),
        ("0123456789abcdef0123456789abcdef", 0x642A_9495_8E71_E6C5),
        ("0123456789abcdef0123456789abcdef0", 0xE876_84F0_8D6D_0816),
        ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),
    ] as [(String, UInt64)])
    func textMatchesTheReference(text: String, expected: UInt64) {
        #expect(XXH64.hash(Data(text.utf8)) == expected)
    }

    @Test func bytesMatchTheReference() {
        #expect(XXH64.hash(Data(repeating: 0x61, count: 32)) == 0x856E_8432_98F9_9AD7)
        #expect(XXH64.hash(Data(0..<100)) == 0x6AC1_E580_3216_6597)
    }

    @Test func theSeedChangesTheHash() {
        #expect(XXH64.hash(Data(), seed: 1) == 0xD5AF_BA13_36A3_BE4B)
        #expect(XXH64.hash(Data("abc".utf8), seed: 1) == 0xBEA9_CA81_9932_8908)
        #expect(XXH64.hash(Data(0..<100), seed: 1) == 0x3D19_A3A2_098A_7023)
    }

    @Test func aBufferAndDataOfTheSameBytesHashAlike() {
        let bytes = [UInt8](0..<100)
        let fromBuffer = bytes.withUnsafeBytes { XXH64.hash($0) }
        #expect(fromBuffer == XXH64.hash(Data(bytes)))
        // A slice that does not start at the buffer's start, as the store's reads hash.
        let fromSlice = bytes.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer(rebasing: $0[1..<4])) }
        #expect(fromSlice == XXH64.hash(Data([1, 2, 3])))
    }
}
