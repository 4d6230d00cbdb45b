// libmagic: detects a file's content type from its bytes (see SwiftPrintCore/Detection).
#include <magic.h>
