/// Every option swiftprint reads, in one list: the CLI's flags, the CUPS filter, the queue's PPD,
/// the helpers and the tests all read it. Adding an option is one declaration in its group's file
/// and its line here.
extension JobSettings {
    public static let declaredOptions: [any DeclaredOption] =
        PaperOptions.all + SheetLayoutOptions.all + PlacementOptions.all + TextOptions.all + MarkupOptions.all + MapOptions.all

    /// The options the queue's PPD offers, in the order it lists them.
    public static var ppdOptions: [any DeclaredOption] { declaredOptions.filter { $0.ppd != nil } }
}
