extension FileCacheStore {
    /// One entry file as a walk of the folder saw it (`Folder.entryFiles(abandonedBefore:)`).
    package struct EntryFile {
        /// The file's full path.
        package var path: String
        /// The file's name, the entry's key digest.
        package var name: String
        /// Its size in bytes.
        package var size: Int
        /// When it was last read or written, by the store's clock: the file's modification time.
        package var lastUse: Double
    }
}
