import LMTransformer
import Testing

/// The KV cache's byte count, which the session's memory check uses, is what the cache maps.
@Suite struct KVCacheSizeTests {
    /// Keys and values, each `[nLayer, positions rounded up to blocks of 8, nKVHead * headDim]` halves.
    @Test(arguments: [(1, 1, 1, 1), (1, 5, 1, 1), (2, 13, 2, 8), (30, 4096, 3, 64), (3, 4097, 4, 128)] as [(Int, Int, Int, Int)])
    func theByteCountIsTwoArraysOfHalvesOverWholeKeyBlocks(_ nLayer: Int, _ contextSize: Int, _ nKVHead: Int, _ headDim: Int) {
        let positions = (contextSize + 7) / 8 * 8
        #expect(MemoryLayout<KVCache.Element>.size == MemoryLayout<Float16>.size)
        #expect(KVCache.bytes(nLayer: nLayer, contextSize: contextSize, nKVHead: nKVHead, headDim: headDim)
                == 2 * nLayer * positions * nKVHead * headDim * MemoryLayout<Float16>.size)
    }

    @Test func smolLM2AtFourThousandTokensTakes94MB() {
        #expect(KVCache.bytes(nLayer: 30, contextSize: 4096, nKVHead: 3, headDim: 64) == 94_371_840)
    }
}
