import ArgumentParser
import Testing

@testable import ServePolicy
@testable import TabShellCommands

/// `serve --metrics ADDR`: off by default, a bare port on loopback, host:port anywhere else, and
/// anything else refused in one sentence before anything starts.
@Suite struct ServeMetricsOptionTests {
    @Test func metricsAreOffUnlessAskedFor() throws {
        #expect(try ServeOptions.parse(["--demo"]).metricsAddress == nil)
    }

    @Test func aBarePortIsOnLoopbackAndAnAddressIsTakenAsGiven() throws {
        #expect(try ServeOptions.parse(["--demo", "--metrics", "9464"]).metricsAddress == ListenAddress("127.0.0.1:9464"))
        #expect(try ServeOptions.parse(["--demo", "--metrics", "0"]).metricsAddress == ListenAddress("127.0.0.1:0"))
        #expect(try ServeOptions.parse(["--demo", "--metrics", "0.0.0.0:9464"]).metricsAddress == ListenAddress("0.0.0.0:9464"))
        let six = try ServeOptions.parse(["--demo", "--metrics", "[::1]:9464"]).metricsAddress
        #expect(six?.host == "::1" && six?.port == 9464)
    }

    @Test func anythingElseIsRefusedWithASentence() {
        for bad in ["", "nowhere", "70000", "-1", "127.0.0.1", "host:port", "::1:9464"] {
            #expect(throws: (any Error).self, "\(bad)") { try ServeOptions.parse(["--demo", "--metrics", bad]) }
        }
        do {
            _ = try ServeOptions.parse(["--demo", "--metrics", "nowhere"])
            Issue.record("--metrics nowhere was taken")
        } catch {
            #expect(ServeOptions.message(for: error).contains("--metrics needs a port such as 9464"), "\(ServeOptions.message(for: error))")
        }
    }
}
