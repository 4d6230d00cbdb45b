// gdk-pixbuf: decodes BMP images (image handler), which no smaller Debian library reads.
#include <gdk-pixbuf/gdk-pixbuf.h>
