// CQPDFShim: the assembler engine, built as libSwiftPrintQPDF.so. Its one exported symbol hands
// out the table of functions CQPDF.h describes; programs find it with spq_functions_load.
#ifndef CQPDFSHIM_H
#define CQPDFSHIM_H

#include "CQPDF.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The engine's functions (static storage).
const SPQFunctions *spq_functions(void);

#ifdef __cplusplus
}
#endif

#endif
