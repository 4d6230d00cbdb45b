// FreeType and cairo's FreeType font faces: fonts opened from memory (CFontSubset).
#include <ft2build.h>
#include FT_FREETYPE_H
#include <cairo/cairo-ft.h>
