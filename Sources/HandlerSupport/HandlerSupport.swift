// HandlerSupport: the layers a content handler builds on, in one import — the model, files and
// child processes, detection, PDF objects (qpdf), the helper runner, graphics (cairo, pango,
// fonts), the option declarations, layout and PDF output. It leaves out what sits above the
// handlers (the job orchestration in PrintJobs, the front ends), so a handler cannot reach up.
@_exported import PrintModel
@_exported import PrintSupport
@_exported import ContentDetection
@_exported import PDFObjects
@_exported import PrintHelpers
@_exported import PrintGraphics
@_exported import PrintOptions
@_exported import PageLayout
@_exported import PDFOutput
