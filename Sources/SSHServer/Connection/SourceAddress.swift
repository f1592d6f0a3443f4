import Glibc

/// The address the per-source limits count a client by: an IPv4 address as it is, an IPv6
/// address by its /64 (one host, or one home, usually holds a whole /64, so counting single
/// IPv6 addresses would give it billions of fresh ones), an IPv4-mapped IPv6 address as IPv4.
enum SourceAddress {
    static func group(_ ip: String) -> String {
        var bytes = in6_addr()
        guard ip.contains(":"), inet_pton(AF_INET6, ip, &bytes) == 1 else { return ip }
        let octets = withUnsafeBytes(of: &bytes) { Array($0) }
        if octets[0..<10].allSatisfy({ $0 == 0 }), octets[10] == 0xff, octets[11] == 0xff {
            return octets[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(octets[$0]) << 8 | UInt16(octets[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The address and port as the log writes them: `203.0.113.7:53122`, `[2001:db8::7]:53122`,
    /// and an IPv4-mapped IPv6 address (a dual-stack listener's IPv4 client) as IPv4, so the
    /// address alone is what a reader (or fail2ban's <HOST>) takes before the last colon.
    static func withPort(_ ip: String, _ port: Int) -> String {
        let mapped = "::ffff:"
        if ip.lowercased().hasPrefix(mapped), !ip.dropFirst(mapped.count).contains(":") {
            return "\(ip.dropFirst(mapped.count)):\(port)"
        }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}
