// The repair engine exports spr_rewrite (CPDFRepair.h); nothing else is public.
#include "CPDFRepair.h"
