// libwebp: decodes WebP images (image handler).
#include <webp/decode.h>
