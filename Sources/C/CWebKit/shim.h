// WebKitGTK (4.1 API): used by the markup renderer's C driver (CWebKitShim) only.
#include <webkit2/webkit2.h>
