extension SwiftNaming {
    /// `base` when no name in `taken` is it, else `base2`, `base3`, … (the first free): how a
    /// name that another already took is told apart.
    package static func numbered(_ base: String, avoiding taken: (String) -> Bool) -> String {
        guard taken(base) else { return base }
        var number = 2
        while taken(base + String(number)) { number += 1 }
        return base + String(number)
    }
}
