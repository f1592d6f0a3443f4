import Foundation
import TestSupport
import Testing

/// The image stack (libvips, libchafa, libzbar and the libraries they pull in) is
/// opened on first use, so a session that never shows a photo maps none of it. Read from the
/// real binary's /proc/PID/maps, before and after the same session shows a photo.
@Suite(.serialized, .tags(.e2e))
struct ImageStackOnDemandEndToEndTests {
    /// The file names of the shared libraries mapped into `pid`.
    static func mappedLibraries(of pid: Int32) throws -> Set<String> {
        // Read to the end: /proc files report no size, and a one-read load would stop at a page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/maps") else { throw HarnessError("no /proc/\(pid)/maps") }
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var names: Set<String> = []
        for line in maps.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first,
                path.hasPrefix("/"), path.contains(".so")
            else { continue }
            names.insert(String(path.split(separator: "/").last ?? ""))
        }
        return names
    }

    /// The image stack's own libraries among `libraries`, and GLib, which only they bring.
    static func imageStack(in libraries: Set<String>) -> [String] {
        libraries.filter { name in
            ["libvips", "libchafa", "libzbar", "libglib-2.0", "libgobject-2.0"].contains { name.hasPrefix($0 + ".so") || name.hasPrefix($0 + "-") }
        }.sorted()
    }

    /// Polls the maps until `condition` holds (codes are read from a staged photo on a thread of
    /// their own, so libzbar may come a moment after the thumbnail is drawn).
    static func waitForLibraries(of pid: Int32, _ what: String, _ condition: (Set<String>) -> Bool) throws -> Set<String> {
        let deadline = Date().addingTimeInterval(15)
        var libraries = try mappedLibraries(of: pid)
        while !condition(libraries) {
            guard Date() < deadline else { throw HarnessError("timed out waiting for \(what); mapped: \(imageStack(in: libraries))") }
            Thread.sleep(forTimeInterval: 0.05)
            libraries = try mappedLibraries(of: pid)
        }
        return libraries
    }

    @Test func aSessionMapsTheImageStackOnlyOnceItShowsAPhoto() throws {
        let s = try TabShellEndToEndTests.launch()
        try PhotoPreviewEndToEndTests.gradientPNG(width: 160, height: 120).write(to: s.workDirectory.appendingPathComponent("shelf.png"))
        try s.waitFor(text: "[ Inbox")
        let pid = try TabShellEndToEndTests.appPID(s)

        // History and the capture form, but no photo: nothing of the image stack.
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("2", "p")
        try s.waitFor(text: "Photos (0 of")
        let before = try Self.mappedLibraries(of: pid)
        print("image stack e2e: \(before.count) shared libraries mapped before any photo")
        #expect(Self.imageStack(in: before).isEmpty, "mapped before any photo: \(Self.imageStack(in: before))")
        #expect(before.contains { $0.hasPrefix("libncursesw") }, "the maps are read from the app itself")

        // A photo is staged and its thumbnail drawn: libvips decoded it, libchafa drew it, and
        // libzbar looked for codes on it.
        try s.type("shelf.png")
        try s.press("Enter")
        try s.waitFor("a thumbnail in capture") { $0.contains("160×120") && PhotoPreviewEndToEndTests.blockCount($0) >= 20 }
        let after = try Self.waitForLibraries(of: pid, "libvips, libchafa and libzbar") { libraries in
            ["libvips.so", "libchafa.so", "libzbar.so"].allSatisfy { stem in libraries.contains { $0.hasPrefix(stem) } }
        }
        print("image stack e2e: \(after.count) shared libraries mapped once a photo was shown")
        #expect(after.count > before.count)

        try s.press("Escape")
        try s.waitFor(text: "Discard")
        try s.press("y")
        try s.waitFor(text: "[ History")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }

    @Test func withoutLibvipsAPhotoSaysSoAndTheCaptureStillWorks() throws {
        // The loader is pointed at a file that does not exist, as on a host without libvips42.
        let s = try TabShellEndToEndTests.launch(environment: ["TABSHELL_LIBVIPS": "libvips-absent.so.42"])
        try PhotoPreviewEndToEndTests.gradientPNG(width: 160, height: 120).write(to: s.workDirectory.appendingPathComponent("shelf.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "p")
        try s.waitFor(text: "Photos (0 of")
        try s.type("shelf.png")
        try s.press("Enter")
        try s.waitFor(text: "Photos (1 of")
        try s.waitFor(text: "Photo previews need libvips")

        // The photo is kept and saved all the same.
        try s.press("Enter")
        try s.waitFor(text: "Press Enter or Ctrl-D to save")
        try s.press("C-d")
        try s.waitFor(text: "Saved photos")
        let pid = try TabShellEndToEndTests.appPID(s)
        #expect(!(try Self.mappedLibraries(of: pid)).contains { $0.hasPrefix("libvips.so") })
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}
