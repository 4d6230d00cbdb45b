/// Every option swiftprint reads, in one list of groups: the CLI's flags and their help, the CUPS
/// filter, the queue's PPD, the helpers and the tests all read it. Adding an option is one
/// declaration in its group's file and its place in that group's `all`.
extension JobSettings {
    /// The options by group, each with the title `--help` shows it under.
    public static let optionGroups: [(title: String, options: [any DeclaredOption])] = [
        ("Paper and job", PaperOptions.all),
        ("Sheets: n-up, two-sided, booklets", SheetLayoutOptions.all),
        ("PDF documents and images", PlacementOptions.all),
        ("Plain text", TextOptions.all),
        ("HTML and Markdown", MarkupOptions.all),
        ("Maps", MapOptions.all),
        ("Raster output", RasterOptions.all),
        ("Limits", LimitOptions.all),
    ]

    public static let declaredOptions: [any DeclaredOption] = optionGroups.flatMap(\.options)

    /// The options the queue's PPD offers, in the order it lists them.
    public static var ppdOptions: [any DeclaredOption] { declaredOptions.filter { $0.ppd != nil } }
}
