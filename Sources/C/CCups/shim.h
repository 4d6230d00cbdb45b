// libcups: option strings (cupsParseOptions) and the queue's PPD (the filter reads the queue's
// defaults and page sizes from it). Debian 12's libcups2-dev has no pkg-config file, so the
// library is linked by name. See SwiftPrintCUPS.
//
// libcups marks its PPD functions deprecated for applications; a CUPS filter reading its own
// queue's PPD is what they remain for (cups-filters does the same). _CUPS_SOURCE is how the
// headers turn those marks off; nothing here uses the private functions it also exposes.
#define _CUPS_SOURCE 1
#include <cups/cups.h>
#include <cups/ppd.h>
