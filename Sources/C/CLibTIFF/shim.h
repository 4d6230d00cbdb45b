// libtiff: decodes TIFF images, every page (see CTIFFShim for its varargs calls).
#include <tiffio.h>
