// librsvg: draws SVG images as vectors through cairo (image handler).
#include <librsvg/rsvg.h>
