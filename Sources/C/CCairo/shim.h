// cairo and its PDF back end, as one Swift module.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
