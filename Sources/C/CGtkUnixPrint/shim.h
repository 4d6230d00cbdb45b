// GTK's Unix printing (GtkPrinter, gtk_enumerate_printers): it sits outside WebKitGTK's include
// path, so it has a target of its own. The markup renderer finds GTK's file printer with it.
#include <gtk/gtkunixprint.h>
