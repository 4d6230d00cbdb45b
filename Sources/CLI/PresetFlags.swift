import ArgumentParser
import Foundation
import SwiftPrint

/// Presets: a job's settings saved as JSON (PrintInfo, the printer included) and used again.
/// Both name files, so they are the command line's own, never a print job's options.
struct PresetFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Start from the settings saved in this preset; options given here override them.", valueName: "file"), completion: .file())
    var preset: String?

    @Option(name: .customLong("save-preset"), help: ArgumentHelp("Save this job's settings (and printer) to this preset file.", valueName: "file"), completion: .file())
    var savePreset: String?

    /// The preset's settings as the base the flags then override.
    func apply(to settings: inout JobSettings) throws {
        guard let preset else { return }
        settings.info = try PrintInfo(presetAt: preset)
    }

    /// Writes `info` to the --save-preset file, replacing it whole or not at all.
    func saveIfAsked(_ info: PrintInfo) throws {
        guard let savePreset else { return }
        do { try OutputFile.save(try info.presetData(), to: savePreset) } catch let error as PrintError { throw error } catch {
            throw PrintError(.outputFailed, path: savePreset, "cannot save the preset: \((error as NSError).localizedDescription)")
        }
    }
}
