extension AppState {
    /// The next waiting note (config.toml's problems) on the status line once it is
    /// free: each shows once, until the next key clears it, then the next.
    mutating func showNextNotice() {
        guard status == nil, !pendingNotices.isEmpty else { return }
        status = StatusMessage(pendingNotices.removeFirst(), kind: .error)
    }
}
