import Foundation

/// A PDF written by hand from its objects' text (object 1 the catalogue), with a correct
/// cross-reference table: for inputs no tool would make (a tiny file declaring a huge image, a
/// page of forty thousand fills).
public enum HandWrittenPDF {
    public static func make(_ objects: [String]) -> Data {
        var pdf = "%PDF-1.4\n", offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(i + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { pdf += String(format: "%010d 00000 n \n", offset) }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(pdf.utf8)
    }
}
