extension YAMLScanner {
    /// A token that may turn out to be the key of a mapping once `:` follows it.
    package struct SimpleKey {
        /// The number of the token the key starts at, counted from the start.
        package var tokenNumber: Int
        /// Whether it must be a key: a token at the indentation of a block mapping.
        package var required: Bool
        /// Where it starts.
        package var mark: YAMLMark
    }
}
