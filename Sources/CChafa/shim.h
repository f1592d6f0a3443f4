// libchafa (and through it GLib): chafa's API is plain C functions and enums, which Swift
// imports directly, so nothing needs wrapping. GLib comes along because chafa's types are
// GLib's (gint, GString, gunichar); PhotoPreview also uses GLib's GChecksum for SHA-256.
#ifndef TABSHELL_CCHAFA_SHIM_H
#define TABSHELL_CCHAFA_SHIM_H
#include <chafa.h>
#endif
