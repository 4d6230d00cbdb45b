import PrintOptions

// swiftprint-map's part of the helper protocol (PrintHelpers): what the map handler asks.

/// swiftprint-map: draw `input` into `output`, each page one sheet's map: a content area of
/// `width` × `height` points with `margin` points around it, where a poster prints its marks.
/// The job's settings the engine reads go with it (not the whole JobSettings: a smaller request
/// is quicker to write and read).
package struct MapDrawingTask: Codable, Sendable {
    package var width: Double
    package var height: Double
    package var margin: Double
    package var map: MapSettings
    package var limits: JobLimits
    package var localFiles: JobSettings.LocalFiles
    package init(width: Double, height: Double, margin: Double, map: MapSettings, limits: JobLimits, localFiles: JobSettings.LocalFiles) {
        self.width = width; self.height = height; self.margin = margin; self.map = map; self.limits = limits; self.localFiles = localFiles
    }
}
