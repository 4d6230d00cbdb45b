// The poppler engine exports spr_rewrite and spr_drawn_text (CPDFRepair.h); nothing else is public.
#include "CPDFRepair.h"
