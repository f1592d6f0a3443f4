// libvips, for the C wrappers in CVipsShim only: vips' API is variadic (NULL-terminated
// option lists), which Swift cannot call, so no Swift file imports this module directly.
// Its headers live in /usr/include/vips; the GLib include paths come from the target's
// pkgConfig (see Package.swift for why that is gobject-2.0 and not vips).
#ifndef TABSHELL_CVIPS_SHIM_H
#define TABSHELL_CVIPS_SHIM_H
#include <vips/vips.h>
#endif
