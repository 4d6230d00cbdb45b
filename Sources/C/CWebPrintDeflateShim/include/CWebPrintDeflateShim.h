// libSwiftPrintWebPrintDeflate.so is preloaded into WebKit's web process (deflate_level.c says
// why); it has nothing to call from Swift. This header exists because SwiftPM wants one.
#pragma once
