import ArgumentParser
import SwiftPrint

/// Options for content with a size of its own: PDF pages (and images, later).
struct DocumentOptions: ParsableArguments {
    @Option(name: .customLong("print-scaling"),
            help: ArgumentHelp("auto, auto-fit, fit, fill or none (IPP print-scaling). PDF pages keep their own size unless this or --media is given."))
    var printScaling: PrintScaling?

    @Option(help: ArgumentHelp("The password of an encrypted PDF (the owner's lifts a ban on printing).", valueName: "password"))
    var password: String?

    var handlerOptions: HandlerOptions {
        var o: HandlerOptions = [:]
        o["print-scaling"] = printScaling?.rawValue
        o["password"] = password
        return o
    }
}

extension PrintScaling: ExpressibleByArgument {}
