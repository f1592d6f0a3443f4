import TabShell

// Display widths and the sanitizer live in TabShell, so the reducer can count the lines the
// renderer will draw; these names keep them where Render's code and tests look for them.

/// See `TabShell.TextWidth`.
public typealias TextWidth = TabShell.TextWidth
/// See `TabShell.Sanitizer`.
public typealias Sanitizer = TabShell.Sanitizer
