import Foundation
import TestSupport

/// A job's `job-state` as a printer or a scheduler tells it over IPP (Get-Job-Attributes sent by
/// `ipptool`): pending, pending-held, processing, processing-stopped, canceled, aborted or
/// completed; nil when the answer names none of them (no such job, or no answer).
func ippJobState(_ id: Int, at printerURI: String) throws -> String? {
    let test = try temporaryDirectory() + "/job-state.test"
    try """
    { OPERATION Get-Job-Attributes
      GROUP operation-attributes-tag
      ATTR charset attributes-charset utf-8
      ATTR naturalLanguage attributes-natural-language en
      ATTR uri printer-uri $uri
      ATTR integer job-id \(id)
      ATTR keyword requested-attributes job-state
      STATUS successful-ok
      DISPLAY job-state }
    """.write(toFile: test, atomically: false, encoding: .utf8)
    let r = try Tool.run("ipptool", ["-c", printerURI, test])
    let states = ["pending", "pending-held", "processing", "processing-stopped", "canceled", "aborted", "completed"]
    return r.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { states.contains($0) }
}
