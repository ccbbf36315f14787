import CacheGenReading
import CacheGenSpec
import CacheGenTranslation
import Dispatch
import Foundation

/// Making the files: every model shard and every repository is translated and rendered on
/// its own core, then each rendered section goes to the file `OutputLayout` assigns it.
/// What the layout has no files for (`OutputLayout.Mocks`) is not rendered.
extension Generator {
    /// Every file of `layout`, in its order; within a file, declarations keep spec order.
    /// `clients` is the module the files of a mocks-only layout import.
    package static func files(
        _ translator: Translator, renderer: SwiftRenderer, layout: OutputLayout, importing clients: SwiftFile.Import?
    ) -> [GeneratedFile] {
        let spec = translator.spec
        var shards = Array(repeating: [Model](), count: layout.shardCount(.models))
        for model in spec.models where !shards.isEmpty {
            shards[layout.file(of: model.name.name, kind: .models).shard].append(model)
        }
        let modelShards = shards
        let repositories = spec.repositories
        // Each piece is independent: translated, rendered and freed on its own core.
        // A repository's shapes are returned as declarations, to be rendered together in one section.
        let pieces = Parallel.map(count: modelShards.count + repositories.count) {
            index -> (texts: [String], shapes: TypeDeclaration?) in
            if index < modelShards.count {
                return (modelShards[index].isEmpty ? [] : [renderer.render(translator.modelSection(modelShards[index]))], nil)
            }
            let repository = repositories[index - modelShards.count]
            switch layout.mocks {
            case .included:
                let sections = translator.repositorySections(repository)
                return ([renderer.render(sections.repository), renderer.render(sections.mock)], sections.shapes)
            case .excluded:
                var sections = translator.repositorySections(repository, withMock: false)
                sections.repository.declarations.append(.type(translator.mockElsewhere(repository)))
                return ([renderer.render(sections.repository), ""], sections.shapes)
            case .only:
                return (["", renderer.render(translator.repositorySections(repository).mock)], nil)
            }
        }
        var bodies: [OutputLayout.File: [String]] = [:]
        for shard in modelShards.indices {
            bodies[OutputLayout.File(kind: .models, shard: shard)] = pieces[shard].texts
        }
        for (offset, repository) in repositories.enumerated() {
            let rendered = pieces[modelShards.count + offset].texts
            let name = repository.name.name
            if layout.mocks != .only { bodies[layout.file(of: name, kind: .repositories), default: []].append(rendered[0]) }
            if layout.mocks != .excluded { bodies[layout.file(of: name, kind: .mocks), default: []].append(rendered[1]) }
        }
        if let shapes = translator.shapeSection(pieces.compactMap(\.shapes)) {
            bodies[layout.shapesFile, default: []].append(renderer.render(shapes))
        }
        let outline = renderer.renderOutline(translator.outline(importing: clients))
        let emptyOutline = renderer.renderOutline(translator.outline(isEmpty: true))
        return layout.files.map { file in
            let sections = bodies[file] ?? []
            return GeneratedFile(
                name: layout.fileName(file), contents: sections.isEmpty ? emptyOutline : ([outline] + sections).joined())
        }
    }
}
