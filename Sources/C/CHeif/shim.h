// libheif's types (headers only: CHeifShim loads the library itself, on first use).
#include <libheif/heif.h>
