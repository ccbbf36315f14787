import Foundation

/// SHA-256 (FIPS 180-4), here because the runtime takes no dependencies and Linux has
/// no CryptoKit. Used for key digests, body digests and folder names.
package enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest.
    package static func digest(of data: Data) -> [UInt8] {
        let state = data.withUnsafeBytes { hash($0) }
        return [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            state.forEachWord { index, word in
                for byte in 0..<4 { buffer[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * byte)) }
            }
            count = 32
        }
    }

    /// The digest as 64 lowercase hex digits.
    package static func hex(of data: Data) -> String {
        data.withUnsafeBytes { hex(of: $0) }
    }

    /// The digest of the text's UTF-8 bytes as 64 lowercase hex digits, without copying them.
    package static func hex(of text: String) -> String {
        var text = text
        return text.withUTF8 { hex(of: UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `bytes` as 64 lowercase hex digits, written straight into the string.
    package static func hex(of bytes: UnsafeRawBufferPointer) -> String {
        let state = hash(bytes)
        return String(unsafeUninitializedCapacity: 64) { buffer in
            state.forEachWord { index, word in
                for nibble in 0..<8 {
                    let value = UInt8(truncatingIfNeeded: word >> UInt32(28 - 4 * nibble)) & 0xF
                    buffer[index * 8 + nibble] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
                }
            }
            return 64
        }
    }

    /// The eight words of the final hash value.
    private struct State {
        package var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
        package var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19

        /// The words in order with their index; no array, so reading the result allocates nothing.
        @inline(__always)
        package func forEachWord(_ body: (Int, UInt32) -> Void) {
            body(0, h0); body(1, h1); body(2, h2); body(3, h3); body(4, h4); body(5, h5); body(6, h6); body(7, h7)
        }
    }

    // Raw buffers and the state in locals, because a key's digest is computed on every call
    // that touches the cache: a version with arrays cost more than the rest of a cache hit.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> State {
        var state = State()
        let count = bytes.count
        let whole = count - count % 64
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                if let base = bytes.baseAddress {
                    var offset = 0
                    while offset < whole {
                        compress(&state, base + offset, w, k)
                        offset += 64
                    }
                }
                // The tail, the 0x80 marker and the bit length: one or two more blocks.
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                    guard let tailBase = tail.baseAddress else { return }
                    let rest = count - whole
                    let blocks = rest < 56 ? 1 : 2
                    let raw = UnsafeMutableRawPointer(tailBase)
                    raw.initializeMemory(as: UInt8.self, repeating: 0, count: blocks * 64)
                    if rest > 0, let base = bytes.baseAddress { raw.copyMemory(from: base + whole, byteCount: rest) }
                    tail[rest] = 0x80
                    raw.storeBytes(of: (UInt64(count) &* 8).bigEndian, toByteOffset: blocks * 64 - 8, as: UInt64.self)
                    for block in 0..<blocks {
                        compress(&state, UnsafeRawPointer(raw + block * 64), w, k)
                    }
                }
            }
        }
        return state
    }

    @inline(__always)
    private static func compress(
        _ state: inout State, _ block: UnsafeRawPointer, _ w: UnsafeMutableBufferPointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>
    ) {
        for i in 0..<16 {
            w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
        }
        for i in 16..<64 {
            let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7)
        // Eight rounds per pass with the roles renamed rather than the eight values moved.
        var i = 0
        while i < 64 {
            round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
            round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
            round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
            round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
            round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
            round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
            round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
            round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
            i += 8
        }
        state.h0 &+= a; state.h1 &+= b; state.h2 &+= c; state.h3 &+= d
        state.h4 &+= e; state.h5 &+= f; state.h6 &+= g; state.h7 &+= h
    }

    /// One round: of the eight working values only `d` and `h` change; the caller rotates
    /// the names for the next round.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
