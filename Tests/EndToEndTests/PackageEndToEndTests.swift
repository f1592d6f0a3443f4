import Foundation
import Glibc
import TestSupport
import Testing

/// The Debian package (docs/operating.md): `scripts/make-deb` run on the debug binary (so no
/// release build is needed), the packages' control files and contents, then both installed with
/// `dpkg --root` into a throw-away root, their maintainer scripts run there (chrootless, with
/// DPKG_ROOT). From that root: the binary runs, `serve` started as tabshell.service starts it
/// (its ExecStart, its environment, /etc/default/tabshell) answers a demo visitor over ssh, the
/// unit passes `systemd-analyze verify`, a crash's frames are named with the installed debug
/// file and not without it, and removing and purging the package leave the data folder as it was.
/// What cannot run here is `systemctl enable --now`: there is no systemd as PID 1.
@Suite(.serialized, .tags(.e2e))
struct PackageEndToEndTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `sh -c command`, its status and its output (standard output and error together).
    @discardableResult
    static func sh(_ command: String) throws -> (status: Int32, output: String) { try Stress.shell(command) }

    static func q(_ text: String) -> String { TmuxSession.quote(text) }

    /// The throw-away root's dpkg, with the options that let it install there from outside:
    /// maintainer scripts run on this system with DPKG_ROOT set (they touch only the root), and
    /// the libraries the package depends on are this system's (checked on their own below).
    static func dpkg(_ root: String, _ arguments: String) throws -> (status: Int32, output: String) {
        try sh("dpkg --root=\(q(root)) --force-not-root --force-script-chrootless --force-depends --log=/dev/null \(arguments)")
    }

    @Test func thePackageInstallsServesTheDemoAndKeepsTheDataWhenRemoved() throws {
        for tool in ["dpkg", "dpkg-deb", "dpkg-shlibdeps", "objcopy", "strip", "readelf", "addr2line", "systemd-analyze", "ssh"] {
            try #require(try Self.sh("command -v \(tool)").status == 0, "\(tool) is needed (dpkg-dev, binutils, systemd, openssh-client)")
        }
        let folder = try TemporaryFolder(prefix: "tabshell-deb")
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let binary = TmuxSession.binary.path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "no binary at \(binary): swift build first")
        let version = try Self.sh("\(Self.q(binary)) --version").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let arch = try Self.sh("dpkg --print-architecture").output.trimmingCharacters(in: .whitespacesAndNewlines)

        // The man page `make man` writes (make test makes it first); alone, a stand-in page.
        var man = Self.packageRoot.appendingPathComponent(".build/generated/tabshell.1").path
        if !FileManager.default.fileExists(atPath: man) {
            man = try folder.write(".TH TABSHELL 1\n.SH NAME\ntabshell \\- stand-in page of the package test\n", to: "tabshell.1").path
        }

        // --- Build -------------------------------------------------------------------------
        let script = Self.packageRoot.appendingPathComponent("scripts/make-deb").path
        let built = try Self.sh(
            "\(Self.q(script)) --binary \(Self.q(binary)) --man \(Self.q(man)) --out \(Self.q(folder.path("out"))) --compression gzip:1")
        try #require(built.status == 0, "make-deb failed:\n\(built.output)")
        let main = folder.path("out/tabshell_\(version)_\(arch).deb")
        let dbgsym = folder.path("out/tabshell-dbgsym_\(version)_\(arch).deb")
        #expect(built.output.contains(main) && built.output.contains(dbgsym), "make-deb names its packages:\n\(built.output)")
        try #require(FileManager.default.fileExists(atPath: main) && FileManager.default.fileExists(atPath: dbgsym), "\(built.output)")

        // --- What the packages say and hold -------------------------------------------------------
        let info = try Self.sh("dpkg-deb --info \(Self.q(main))").output
        for line in ["Package: tabshell", "Version: \(version)", "Architecture: \(arch)", "Depends: libc6", "Recommends: libvips42"] {
            #expect(info.contains(line), "dpkg-deb --info lacks \(line):\n\(info)")
        }
        for member in ["postinst", "prerm", "postrm", "conffiles", "md5sums"] {
            #expect(info.contains(" \(member) ") || info.contains(" \(member)\n"), "no \(member) in the control archive:\n\(info)")
        }
        let conffiles = try Self.sh("dpkg-deb --info \(Self.q(main)) conffiles").output
        #expect(
            conffiles.split(separator: "\n").sorted() == [
                "/etc/default/tabshell", "/etc/fail2ban/filter.d/tabshell.conf", "/etc/fail2ban/jail.d/tabshell.conf", "/etc/tabshell/serve.toml",
            ], "conffiles:\n\(conffiles)")
        let contents = try Self.sh("dpkg-deb --contents \(Self.q(main))").output
        for path in [
            "./usr/bin/tabshell", "./usr/share/man/man1/tabshell.1.gz", "./usr/share/bash-completion/completions/tabshell",
            "./usr/share/zsh/vendor-completions/_tabshell", "./usr/share/fish/vendor_completions.d/tabshell.fish",
            "./usr/lib/systemd/system/tabshell.service", "./usr/lib/sysusers.d/tabshell.conf", "./etc/tabshell/serve.toml",
            "./etc/default/tabshell", "./usr/share/doc/tabshell/operating.md.gz", "./etc/fail2ban/filter.d/tabshell.conf",
            "./etc/fail2ban/jail.d/tabshell.conf",
        ] {
            #expect(contents.contains(" \(path)\n"), "the package lacks \(path):\n\(contents)")
        }
        #expect(!contents.contains("/usr/lib/debug/"), "the debug information is in the -dbgsym package, not here")
        let buildID = try Self.sh("readelf -n \(Self.q(binary)) | awk '/Build ID:/ { print $3; exit }'").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(buildID.count > 2, "the binary has no build ID")
        let debugPath = "/usr/lib/debug/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
        let dbgsymInfo = try Self.sh("dpkg-deb --info \(Self.q(dbgsym)); dpkg-deb --contents \(Self.q(dbgsym))").output
        for line in ["Package: tabshell-dbgsym", "Depends: tabshell (= \(version))", "Build-Ids: \(buildID)", ".\(debugPath)"] {
            #expect(dbgsymInfo.contains(line), "the -dbgsym package lacks \(line):\n\(dbgsymInfo)")
        }

        // Every dependency is a package this (Debian) system has, at a version that satisfies it.
        let depends = try Self.sh("dpkg-deb --field \(Self.q(main)) Depends").output.trimmingCharacters(in: .whitespacesAndNewlines)
        for clause in depends.components(separatedBy: ", ") {
            let words = clause.replacingOccurrences(of: "(", with: "").replacingOccurrences(of: ")", with: "").split(separator: " ")
            guard let name = words.first else { continue }
            let installed = try Self.sh("dpkg-query -W -f='${Version}' \(Self.q(String(name)))")
            #expect(installed.status == 0, "\(name) (from Depends: \(depends)) is not installed here")
            if words.count == 3, installed.status == 0 {
                let satisfied = try Self.sh("dpkg --compare-versions \(Self.q(installed.output)) \(Self.q(String(words[1]))) \(Self.q(String(words[2])))")
                #expect(satisfied.status == 0, "\(name) \(installed.output) does not satisfy \(clause)")
            }
        }

        // --- Installed into a throw-away root ---------------------------------------------------
        let root = folder.path("root")
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/info", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dpkg/updates", withIntermediateDirectories: true)
        for file in ["status", "available"] { _ = FileManager.default.createFile(atPath: root + "/var/lib/dpkg/" + file, contents: Data()) }
        let installed = try Self.dpkg(root, "-i \(Self.q(main)) \(Self.q(dbgsym))")
        try #require(installed.status == 0, "dpkg --root -i failed:\n\(installed.output)")
        let status = try Self.sh("dpkg --root=\(Self.q(root)) -l tabshell tabshell-dbgsym").output
        #expect(status.contains("ii  tabshell ") && status.contains("ii  tabshell-dbgsym "), "\(status)")
        if try Self.sh("command -v systemd-sysusers").status == 0 {
            let passwd = (try? String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)) ?? ""
            #expect(passwd.contains("tabshell:x:") && passwd.contains(":/var/lib/tabshell:/usr/sbin/nologin"), "postinst made the user in the root:\n\(passwd)")
        }
        let installedBinary = root + "/usr/bin/tabshell"
        #expect(try Self.sh(Self.q(installedBinary) + " --version").output.trimmingCharacters(in: .whitespacesAndNewlines) == version)

        // Stripped, and linked to its debug file, which holds what was stripped.
        let sections = try Self.sh("readelf -S -W \(Self.q(installedBinary))").output
        #expect(!sections.contains(".debug_info") && !sections.contains(" .symtab "), "the installed binary is stripped:\n\(sections)")
        // (The section ends in a CRC, not text: only the name is kept.)
        let link = try Self.sh("readelf --string-dump=.gnu_debuglink \(Self.q(installedBinary)) | grep -a -o '[[:xdigit:]]*[.]debug'").output
        #expect(link.contains("\(buildID.dropFirst(2)).debug"), "the debug link names the debug file:\n\(link)")
        let debugFile = root + debugPath
        let debugSections = try Self.sh("readelf -S -W \(Self.q(debugFile))").output
        #expect(debugSections.contains(".debug_info") && debugSections.contains(" .symtab "), "\(debugSections)")

        // --- The unit ------------------------------------------------------------------------
        let unit = try String(contentsOfFile: root + "/usr/lib/systemd/system/tabshell.service", encoding: .utf8)
        for setting in [
            "User=tabshell", "StateDirectory=tabshell", "ProtectSystem=strict", "NoNewPrivileges=yes", "PrivateTmp=yes", "MemoryMax=",
            "TasksMax=", "OOMPolicy=continue", "EnvironmentFile=-/etc/default/tabshell",
            "ExecStart=/usr/bin/tabshell serve --config /etc/tabshell/serve.toml $TABSHELL_SERVE_OPTIONS", "Type=notify", "NotifyAccess=all",
            "ExecReload=/bin/kill -USR2 $MAINPID",
            "Environment=HOME=/var/lib/tabshell XDG_DATA_HOME=/var/lib",
        ] {
            #expect(unit.contains("\n\(setting)"), "the unit lacks \(setting)")
        }
        // systemd-analyze verify checks that ExecStart's program exists on this system, where it
        // is not installed: the unit is verified with that one path pointing into the root, and
        // man finds tabshell(1) (its Documentation=) there too.
        try FileManager.default.createDirectory(atPath: folder.path("unit"), withIntermediateDirectories: true)
        try unit.replacingOccurrences(of: "/usr/bin/tabshell", with: installedBinary)
            .write(toFile: folder.path("unit/tabshell.service"), atomically: true, encoding: .utf8)
        let verified = try Self.sh("MANPATH=\(Self.q(root + "/usr/share/man")) systemd-analyze verify \(Self.q(folder.path("unit/tabshell.service")))")
        #expect(verified.status == 0 && verified.output.isEmpty, "systemd-analyze verify:\n\(verified.output)")

        // --- Served as the unit serves it: its ExecStart, environment, serve.toml and options file ---
        let options = try Self.sh(". \(Self.q(root + "/etc/default/tabshell")) && printf %s \"$TABSHELL_SERVE_OPTIONS\"").output
        let settings = root + "/etc/tabshell/serve.toml"
        let checked = try Self.sh("\(Self.q(installedBinary)) serve --check --config \(Self.q(settings))")
        #expect(checked.status == 0, "the shipped serve.toml has no problem:\n\(checked.output)")
        let state = root + "/var/lib/tabshell"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("tmp"), withIntermediateDirectories: true)
        let started = Date()
        let output = folder.path("serve.out")
        let server = try Stress.spawn(
            [
                "/usr/bin/env", "-i", "HOME=\(state)", "XDG_DATA_HOME=\(root)/var/lib", "LANG=C.UTF-8", "TMPDIR=\(folder.path("tmp"))", installedBinary,
                "serve", "--config", settings,
            ]
                + options.split(separator: " ").map(String.init) + ["--listen", "127.0.0.1:0"],
            log: output)
        var port: String?
        _ = Stress.poll(timeout: 20) {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            port = text.range(of: #"Listening on 127\.0\.0\.1:\d+"#, options: .regularExpression).map { String(text[$0].split(separator: ":").last ?? "") }
            return port != nil
        }
        let listening = Date().timeIntervalSince(started)
        let answer = try Self.sh(
            "ssh -T -F /dev/null -p \(port ?? "0") -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                + "-o LogLevel=ERROR -o PubkeyAuthentication=no -o ConnectTimeout=10 visitor@127.0.0.1 inbox list")
        let answered = Date().timeIntervalSince(started)
        let serveOutput = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        Stress.stop(server)
        #expect(port != nil && listening < 5, "listening after \(listening) s:\n\(serveOutput)")
        #expect(answer.status == 0 && answer.output.contains("Write down the delivery notes"), "a demo visitor's inbox:\n\(answer.output)\n\(serveOutput)")
        #expect(answered < 15, "the demo answered \(answered) s after the start (listening after \(listening) s)")
        print("PackageEndToEndTests: listening \(String(format: "%.2f", listening)) s, a demo visitor answered \(String(format: "%.2f", answered)) s after the start")
        let hostKey = state + "/ssh_host_ed25519_key"
        #expect(FileManager.default.fileExists(atPath: hostKey) && FileManager.default.fileExists(atPath: state + "/tabshell.log"), "the data folder")
        let key = FileManager.default.contents(atPath: hostKey)
        // The installed fail2ban filter reads the log and finds no failed login in a demo visit.
        let filtered = try Self.sh(
            "fail2ban-regex \(Self.q(state + "/tabshell.log")) \(Self.q(root + "/etc/fail2ban/filter.d/tabshell.conf")) | grep '^Lines:'")
        #expect(filtered.output.contains(" 0 matched"), "fail2ban-regex on the demo visit's log:\n\(filtered.output)")

        // --- A crash's frames named with the installed debug file --------------------------------
        try checkCrashFrames(binary: installedBinary, root: root, debugFile: debugFile, folder: folder)

        // --- Removed, then purged: the data stays ----------------------------------------------------
        let removed = try Self.dpkg(root, "-r tabshell-dbgsym tabshell")
        #expect(removed.status == 0, "dpkg --root -r:\n\(removed.output)")
        #expect(!FileManager.default.fileExists(atPath: installedBinary) && !FileManager.default.fileExists(atPath: debugFile))
        #expect(!FileManager.default.fileExists(atPath: root + "/usr/lib/systemd/system/tabshell.service"))
        #expect(FileManager.default.fileExists(atPath: root + "/etc/default/tabshell"), "a removed package keeps its configuration files")
        #expect(key != nil && FileManager.default.contents(atPath: hostKey) == key, "removing keeps the host key as it was")
        let purged = try Self.dpkg(root, "--purge tabshell")
        #expect(purged.status == 0 && purged.output.contains("is kept"), "dpkg --root --purge:\n\(purged.output)")
        #expect(!FileManager.default.fileExists(atPath: root + "/etc/default/tabshell"), "a purge removes the configuration files")
        #expect(key != nil && FileManager.default.contents(atPath: hostKey) == key, "purging keeps the host key as it was")
        #expect(FileManager.default.fileExists(atPath: state + "/tabshell.log"), "purging keeps the log")
    }

    /// A command of the installed binary killed with SIGSEGV once it runs as a served session's
    /// child does (its standard error and crash frames go to the log beside its database): the
    /// log's frames, offsets into the stripped binary, name Swift functions and the crash guard's
    /// handler through the installed debug file, and the stripped binary alone names neither.
    func checkCrashFrames(binary: String, root: String, debugFile: String, folder: TemporaryFolder) throws {
        let data = folder.path("crash")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let input = folder.path("crash/input")
        try #require(mkfifo(input, 0o600) == 0)
        // Held open for writing (O_RDWR does not wait for a reader): `inbox import -` reads on.
        let writer = open(input, O_RDWR)
        try #require(writer >= 0)
        defer { close(writer) }
        let pid = try Stress.spawn(
            [
                "/bin/sh", "-c",
                "exec /usr/bin/env -i TABSHELL_SERVED=1 LANG=C.UTF-8 \(Self.q(binary)) inbox import - --db \(Self.q(data + "/x.sqlite")) < \(Self.q(input))",
            ],
            log: folder.path("crash.out"))
        defer { Stress.stop(pid) }
        let log = data + "/tabshell.log"
        let ready = Stress.poll(timeout: 20) { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/2")) == log }
        try #require(ready, "the command never pointed its standard error at \(log)")
        // To the thread blocked reading standard input (read(0, …) in /proc/PID/task/TID/syscall:
        // system call 0 on x86-64, 63 on arm64), which Swift code called: a signal to the process
        // goes to any thread, and one parked in the runtime's pool, or one still starting, has no
        // frame of the app's own to name.
        var reader: pid_t?
        let reading = Stress.poll(timeout: 20) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            reader = tasks.compactMap { pid_t($0) }.first { tid in
                let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/syscall", encoding: .utf8)) ?? ""
                return call.hasPrefix("0 0x0 ") || call.hasPrefix("63 0x0 ")
            }
            return reader != nil
        }
        let thread = try #require(reader, "no thread of the command is reading its input (\(reading))")
        typealias ThreadKill = @convention(c) (pid_t, pid_t, Int32) -> Int32
        let tgkill = try #require(dlsym(nil, "tgkill").map { unsafeBitCast($0, to: ThreadKill.self) }, "no tgkill in the C library")
        #expect(tgkill(pid, thread, SIGSEGV) == 0)
        var ending: Int32 = 0
        let ended = Stress.poll(timeout: 20) { waitpid(pid, &ending, WNOHANG) == pid }
        #expect(ended && ending & 0x7F == SIGSEGV, "the command died of SIGSEGV (wait status \(ending))")
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(text.contains("crashed on SIGSEGV"), "\(text)")
        let frames = text.split(separator: "\n").filter { $0.hasPrefix(binary + "(+0x") }
        let offsets = frames.compactMap { line -> String? in
            guard let start = line.range(of: "(+"), let end = line.range(of: ")", range: start.upperBound..<line.endIndex) else { return nil }
            return String(line[start.upperBound..<end.lowerBound])
        }
        try #require(!offsets.isEmpty, "no frames of the binary in the log:\n\(text)")
        let named = try Self.sh("addr2line -f -e \(Self.q(debugFile)) \(offsets.joined(separator: " "))").output
        let functions = named.split(separator: "\n").enumerated().filter { $0.offset % 2 == 0 }.map { String($0.element) }
        #expect(functions.contains("on_fatal_signal"), "the crash guard's handler is named:\n\(named)")
        let swiftNames = functions.filter { $0.hasPrefix("$s") }
        #expect(!swiftNames.isEmpty, "Swift functions are named:\n\(named)")
        let unnamed = try Self.sh("addr2line -f -e \(Self.q(binary)) \(offsets.joined(separator: " "))").output
        #expect(!unnamed.contains("on_fatal_signal") && !swiftNames.contains(where: unnamed.contains), "the stripped binary alone names them:\n\(unnamed)")

        // gdb finds the debug file by the binary's build ID under the root's /usr/lib/debug, as it
        // does under /usr/lib/debug once tabshell-dbgsym is installed.
        if try Self.sh("command -v gdb").status == 0, let swift = offsets.indices.first(where: { functions.indices.contains($0) && functions[$0].hasPrefix("$s") }) {
            let gdb = try Self.sh(
                "gdb -batch -nx -iex \(Self.q("set debug-file-directory \(root)/usr/lib/debug")) -ex \(Self.q("info symbol \(offsets[swift])")) \(Self.q(binary)) 2>/dev/null")
            #expect(gdb.output.contains(functions[swift] + " + "), "gdb with the installed debug file:\n\(gdb.output)")
        }
    }
}
