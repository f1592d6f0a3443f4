#ifndef CPTY_INTERNAL_H
#define CPTY_INTERNAL_H

/// Shared by CPty's C files, not part of its interface (include/CPty.h).

/// In a child after fork: every signal at its default and none blocked (async-signal-safe).
void cpty_child_reset_signals(void);

#endif
