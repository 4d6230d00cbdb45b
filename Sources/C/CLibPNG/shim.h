// libpng: decodes PNG images (see CPNGShim, which wraps its longjmp errors).
#include <png.h>
