import CLazyCurl
import CLazyCurlProbe
import Testing

/// libcurl is opened on first use by CLazyCurl's trampolines, so a binary that never makes an
/// HTTP request does not load it at start. The release binary's list of needed libraries is
/// measured by `make bench` (its "libraries mapped" line); here the trampolines are shown to
/// reach the real libcurl and to carry the variadic options through.
@Suite struct LazyCurlTests {
    @Test func theVersionComesFromTheRealLibrary() {
        let version = String(cString: tabshell_curl_version())
        #expect(version.hasPrefix("libcurl/"), "\(version)")
        #expect(tabshell_curl_loaded())
    }

    /// libcurl called from C through the trampolines, as Foundation's networking half calls it in
    /// the release binary (linked statically to them): the variadic options reach libcurl and its
    /// answers come back, and every call is counted as going through a trampoline.
    @Test func callsFromCGoThroughTheTrampolinesToLibcurl() {
        let before = tabshell_curl_calls()
        #expect(lazy_curl_probe_round_trip())
        // curl_easy_init, two options, cleanup; curl_multi_init, two options, cleanup.
        #expect(tabshell_curl_calls() >= before + 8)
        #expect(tabshell_curl_loaded())
    }
}
