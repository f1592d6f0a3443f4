import CImageStack

/// A library of the image stack, opened on first use (CImageStack; docs/photo-preview.md,
/// "Loaded on first use"): a process that never shows a photo maps none of them.
public enum ImageLibrary: String, Sendable, Hashable, CaseIterable {
    /// Decodes photos (previews and codes).
    case vips
    /// Draws previews in cells or graphics.
    case chafa
    /// Reads barcodes from photos.
    case zbar

    /// The library's name as a user looks for it.
    public var name: String { "lib\(rawValue)" }

    /// The Debian package that installs it.
    public var package: String {
        switch self {
        case .vips: "libvips42"
        case .chafa: "libchafa0"
        case .zbar: "libzbar0"
        }
    }

    /// Opens the library if no call has yet (once per process, on whichever thread asks first);
    /// throws the loader's words (dlerror's) when it cannot be opened. Cheap once it has been.
    public func load() throws(ImageLibraryMissing) {
        var message = MessageBuffer()
        let status = message.withBuffer { buffer, capacity in tsi_load(cLibrary, buffer, capacity) }
        guard status == 0 else { throw ImageLibraryMissing(library: self, detail: message.text) }
    }

    private var cLibrary: tsi_library {
        switch self {
        case .vips: TSI_VIPS
        case .chafa: TSI_CHAFA
        case .zbar: TSI_ZBAR
        }
    }
}

/// An image library that could not be loaded: not installed, or not the version tabshell was
/// built for. `detail` is the dynamic loader's message, for the log.
public struct ImageLibraryMissing: Error, Hashable, Sendable {
    public var library: ImageLibrary
    public var detail: String

    public init(library: ImageLibrary, detail: String) {
        self.library = library
        self.detail = detail
    }
}
