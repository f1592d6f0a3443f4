#ifndef CSQLITE_TUNING_H
#define CSQLITE_TUNING_H

/// Lean SQLite connections: `sqlite3_config` is variadic, so Swift cannot call it; this does.
/// Must run before SQLite is first used in the process (before `sqlite3_initialize`). Each
/// connection then starts with a lookaside of 64 small slots (8 KiB) instead of 100 of 1,200
/// bytes (120 KiB, all written when the connection opens), and no bulk page cache of 20 pages
/// (~86 KiB, written too): pages are taken as they are read. 0, or SQLite's error code (21,
/// SQLITE_MISUSE, when SQLite was already in use: nothing changed).
int tabshell_sqlite_use_lean_connections(void);

#endif
