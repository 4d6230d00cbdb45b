// libheif: decodes HEIF/HEIC images, the iPhone camera format (image handler).
#include <libheif/heif.h>
