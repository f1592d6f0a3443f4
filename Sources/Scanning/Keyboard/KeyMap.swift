/// One layout's characters on the US key positions (the main block: number row, three letter
/// rows; unshifted, then shifted). Dead keys (AZERTY `^` `¨`, QWERTZ `^` `´` `` ` ``) are listed
/// with the accent they type when the next key does not combine with it.
struct KeyMap: Sendable {
    let forward: [Character: Character]
    let inverse: [Character: Character]

    /// The US layout's keys, in the order the other layouts' strings follow.
    static let usKeys =
        Array("`1234567890-=qwertyuiop[]\\asdfghjkl;'zxcvbnm,./")
        + Array("~!@#$%^&*()_+QWERTYUIOP{}|ASDFGHJKL:\"ZXCVBNM<>?")

    static let identity = KeyMap(layoutKeys: usKeys)

    /// French AZERTY (fr). The shifted `~` key types nothing useful and is left out.
    static let azerty = KeyMap(
        layoutKeys:
            Array("²&é\"'(-è_çà)=azertyuiop^$*qsdfghjklmùwxcvbn,;:!")
            + Array("~1234567890°+AZERTYUIOP¨£µQSDFGHJKLM%WXCVBN?./§"))

    /// German QWERTZ (de).
    static let qwertz = KeyMap(
        layoutKeys:
            Array("^1234567890ß´qwertzuiopü+#asdfghjklöäyxcvbnm,.-")
            + Array("°!\"§$%&/()=?`QWERTZUIOPÜ*'ASDFGHJKLÖÄYXCVBNM;:_"))

    /// British (gb): `"`/`@` and `#`/`£` swap places, `\` types `#`.
    static let uk = KeyMap(
        layoutKeys:
            Array("`1234567890-=qwertyuiop[]#asdfghjkl;'zxcvbnm,./")
            + Array("¬!\"£$%^&*()_+QWERTYUIOP{}~ASDFGHJKL:@ZXCVBNM<>?"))

    /// Pairs each US key with the layout's character at the same place; equal pairs are left out
    /// so only the differences are looked up.
    init(layoutKeys: [Character]) {
        var forward: [Character: Character] = [:]
        var inverse: [Character: Character] = [:]
        for (us, local) in zip(KeyMap.usKeys, layoutKeys) where us != local {
            forward[us] = local
            inverse[local] = us
        }
        self.forward = forward
        self.inverse = inverse
    }
}
