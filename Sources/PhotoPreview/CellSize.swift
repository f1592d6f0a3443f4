// A size in terminal cells is CellGeometry's `CellSize`, the one type the app's model and the
// previewer share; whoever imports PhotoPreview sees it.
@_exported import CellGeometry
