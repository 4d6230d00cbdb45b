// poppler's core headers are C++ (PDFDoc.h, XRef.h …); CPDFRepairShim includes them itself.
