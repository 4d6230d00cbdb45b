// pango with its cairo renderer, plus the GLib/GObject calls needed to own pango objects.
#include <pango/pangocairo.h>
