#include "CSQLiteTuning.h"

#include <sqlite3.h>

int tabshell_sqlite_use_lean_connections(void) {
    int lookaside = sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 128, 64);
    if (lookaside != SQLITE_OK) return lookaside;
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}
