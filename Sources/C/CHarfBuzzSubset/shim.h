// HarfBuzz's subsetter, used by the assembler engine (CQPDFShim) to cut the whole fonts WebKit
// embeds down to the glyphs a document shows.
#include <hb.h>
#include <hb-subset.h>
