import Testing

@_spi(Generated) @_spi(RuntimeLayers) import CachedClientValues

@Suite("UTF8Writer")
struct UTF8WriterTests {
    @Test func writesTextStaticTextAndBytesInOrder() {
        let parts = ("é/ü", "ascii", "😀")
        let size = parts.0.utf8.count + 1 + parts.1.utf8.count + 3 + parts.2.utf8.count
        var written = -1
        let text = String(unsafeUninitializedCapacity: size) { buffer in
            var writer = UTF8Writer(buffer)
            writer.write(parts.0)
            writer.write(UInt8(ascii: "\n"))
            writer.write(parts.1)
            writer.write(" : " as StaticString)
            writer.write(parts.2)
            written = writer.count
            return writer.count
        }
        #expect(text == "é/ü\nascii : 😀")
        #expect(written == size)
    }

    @Test func emptyTextWritesNothing() {
        let text = String(unsafeUninitializedCapacity: 1) { buffer in
            var writer = UTF8Writer(buffer)
            writer.write("")
            writer.write("" as StaticString)
            #expect(writer.count == 0)
            writer.write(UInt8(ascii: "x"))
            return writer.count
        }
        #expect(text == "x")
    }

    /// Strings of up to 15 bytes are stored inline, longer ones on the heap; both copy whole.
    @Test(arguments: ["short", String(repeating: "long é ", count: 20)])
    func inlineAndHeapStringsAreCopiedWhole(text: String) {
        let copy = String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var writer = UTF8Writer(buffer)
            writer.write(text)
            return writer.count
        }
        #expect(copy == text)
    }
}
