extension FileCacheStore {
    /// One entry file as a walk of the folder saw it (`Folder.entryFiles(abandonedBefore:)`).
    package struct EntryFile {
        package var path: String
        package var name: String
        package var size: Int
        package var lastUse: Double
    }
}
