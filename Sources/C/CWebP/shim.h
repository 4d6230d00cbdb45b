// libwebp: decodes WebP images (image handler); libwebpdemux finds the ICC profile's chunk.
#include <webp/decode.h>
#include <webp/demux.h>
