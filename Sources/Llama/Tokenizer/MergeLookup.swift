/// A vocabulary's merges as the merging loop reads them: a pair of symbols gives one value that
/// orders merges by rank, and the token a merge makes comes from that value.
///
/// Two tables conform: `BPEMergeTable` (ids and ranks of 16 bits, for vocabularies such as
/// SmolLM2's) and `WideBPEMergeTable` (18 bits, for Qwen2.5's 151,936 tokens). The tokenizer is
/// specialized for each, so the narrow table's loop is what it was before the wide one existed.
protocol MergeLookup {
    /// The merge of `left` followed by `right`: lower for a lower rank (the same pair, the same
    /// value), and `UInt32.max` when the pair has none.
    func rankedMerge(_ left: Int32, _ right: Int32) -> UInt32
    /// The token a merge of value `merge` (not `UInt32.max`) makes.
    func token(_ merge: UInt32) -> Int32
}

extension BPEMergeTable.Lookup: MergeLookup {
    @inline(__always)
    func rankedMerge(_ left: Int32, _ right: Int32) -> UInt32 { merge(left, right).packed }

    @inline(__always)
    func token(_ merge: UInt32) -> Int32 { BPEMergeTable.Merge(packed: merge).token }
}
