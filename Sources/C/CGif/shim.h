// giflib: decodes GIF images (image handler). Debian ships no pkg-config file for it.
#include <gif_lib.h>
