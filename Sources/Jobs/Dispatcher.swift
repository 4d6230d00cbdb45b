import ContentDetection
import Foundation
import Logging
import PageLayout
import PrintModel

/// Routes inputs to handlers: detects each input's type and picks the most specific handler the
/// type conforms to (public.jpeg → the image handler through public.image).
public struct Dispatcher: Sendable {
    public let registry: HandlerRegistry
    public let detector: ContentDetector
    /// Makes the handler for a type whose catalogue entry names a converter command.
    public let converterHandler: (@Sendable ([String]) -> any ContentHandler)?

    public init(registry: HandlerRegistry, detector: ContentDetector,
                converterHandler: (@Sendable ([String]) -> any ContentHandler)? = nil) {
        self.registry = registry
        self.detector = detector
        self.converterHandler = converterHandler
    }

    /// The handler for a detected type: the most specific compiled-in handler it conforms to,
    /// else its converter command's, else nil.
    public func handler(for type: ContentType) -> (any ContentHandler)? {
        for uti in detector.catalogue.conformanceChain(of: type.identifier) {
            if let h = registry.handler(for: uti) { return h }
        }
        if let command = type.converter, let make = converterHandler { return make(command) }
        return nil
    }

    /// A readable input's type and handler; a clear error naming the type when none prints it.
    public func route(_ input: PrintInput) throws -> (type: DetectedType, handler: any ContentHandler) {
        if let declared = input.declaredMIMEType, declared != "application/octet-stream",
           let type = detector.catalogue.type(forMIME: declared), let handler = handler(for: type) {
            // The sender's word decides, refined where the first bytes show a narrower type of
            // the same kind (application/json that is GeoJSON gets the map handler). libmagic
            // is not asked: it would only second-guess the sender.
            let refined = try detector.refine(declared: declared, input: input)
            if ContentSignature.matches(uti: type.identifier, head: refined.head ?? Data()) == false {
                // The bytes are not what the sender said (cupsd's CONTENT_TYPE is the job's
                // original type even after another filter ran; a PNG may come named x.pdf):
                // the content decides, as it does for `swiftprint convert`.
                var undeclared = input
                undeclared.declaredMIMEType = nil
                let routed = try route(undeclared)
                Logger(label: "swiftprint.job").debug("\(input.displayName): sent as \(declared), its content is \(routed.type.mimeType): printed as that")
                return routed
            }
            if let narrower = refined.type, narrower.identifier != type.identifier,
               detector.catalogue.conforms(narrower.identifier, to: type.identifier), let h = self.handler(for: narrower) {
                return (refined, h)
            }
            return (DetectedType(mimeType: declared, type: type, method: "declared", head: refined.head), handler)
        }
        let detected = try input.data.map { try detector.detect(data: $0, name: input.displayName) } ?? detector.detect(path: input.path)
        guard let type = detected.type else {
            if detected.mimeType == "inode/x-empty" { throw PrintError(.noContent, path: input.path, "the file is empty") }
            if detected.mimeType == "inode/directory" { throw PrintError(.inputUnreadable, path: input.path, "is a folder, not a file") }
            throw PrintError(.unknownFormat, path: input.path, "cannot print \(detected.mimeType) content (swiftprint types lists what it prints)")
        }
        guard let handler = handler(for: type) else {
            throw PrintError(.unknownFormat, path: input.path,
                             "cannot print \(type.description) (\(type.identifier), \(detected.mimeType)) yet: no handler for it is installed")
        }
        return (detected, handler)
    }

    /// Whether swiftprint can print the file at `url` (UIKit's canPrintURL).
    public func canPrint(url: URL) -> Bool {
        (try? route(PrintInput(path: url.path))) != nil
    }

    /// Whether swiftprint can print `data` (UIKit's canPrintData).
    public func canPrint(data: Data) -> Bool {
        (try? route(PrintInput(data: data, name: "data"))) != nil
    }

    /// Every UTI that some handler prints, directly or by conformance (UIKit's printableUTIs).
    public var printableUTIs: [String] {
        detector.catalogue.order.filter { uti in
            guard let type = detector.catalogue.type(uti) else { return false }
            return handler(for: type) != nil
        }
    }
}

