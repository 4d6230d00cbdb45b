/// swiftprint's own options as the queue's PPD offers them, so that `lpoptions -p swiftprint -l`
/// lists them and an administrator can set the queue's defaults. A choice's keyword stands for
/// a value the filter passes on (`Title` → the header template `{title}`); any other value given
/// with `lp -o swiftprint-header=…` is used as it is.
public struct QueueOption: Sendable {
    public struct Choice: Sendable {
        public let keyword: String
        public let label: String
        /// What the filter reads; empty means "none" (no header).
        public let value: String
    }

    public let name: String
    public let label: String
    public let choices: [Choice]
    public let defaultKeyword: String

    init(_ name: String, _ label: String, default defaultKeyword: String, _ choices: [(String, String, String)]) {
        self.name = name; self.label = label; self.defaultKeyword = defaultKeyword
        self.choices = choices.map { Choice(keyword: $0.0, label: $0.1, value: $0.2) }
    }

    /// Every option the PPD offers besides the paper.
    public static let all: [QueueOption] = [
        QueueOption("swiftprint-header", "Header", default: "None", [
            ("None", "None", ""), ("Title", "Title", "{title}"),
            ("TitleDate", "Title and date", "{title}||{date}"),
            ("TitlePage", "Title and page number", "{title}||{page}/{pages}"),
        ]),
        QueueOption("swiftprint-footer", "Footer", default: "None", [
            ("None", "None", ""), ("Page", "Page number", "|{page}|"),
            ("PageOfPages", "Page x of y", "||page {page} of {pages}"),
            ("FileDatePage", "File, date and page", "{file}|{date}|{page}/{pages}"),
        ]),
        // Not "swiftprint-header-…": a PPD option may not begin with another's whole name.
        QueueOption("swiftprint-sheet-headers", "Header and footer", default: "False", [
            ("False", "On each page", "false"), ("True", "Once per side of the sheet (n-up)", "true"),
        ]),
        QueueOption("swiftprint-line-numbers", "Line numbers (text)", default: "False", [
            ("False", "Off", "false"), ("True", "On", "true"),
        ]),
        QueueOption("swiftprint-wrap", "Long lines (text)", default: "True", [
            ("True", "Wrap", "true"), ("False", "Cut at the margin", "false"),
        ]),
        QueueOption("swiftprint-columns", "Columns (text)", default: "1", [
            ("1", "1", "1"), ("2", "2", "2"), ("3", "3", "3"), ("4", "4", "4"),
        ]),
        QueueOption("swiftprint-output-type", "Output type", default: "general", [
            ("general", "General", "general"), ("grayscale", "Grayscale", "grayscale"),
            ("photo", "Photo (borderless photo paper)", "photo"), ("photoGrayscale", "Grayscale photo", "photoGrayscale"),
        ]),
    ]

    /// What `value` means for the option `name`: a choice's keyword becomes its value;
    /// anything else is passed on unchanged.
    public static func resolve(name: String, value: String) -> String {
        guard let option = all.first(where: { $0.name == name }),
              let choice = option.choices.first(where: { $0.keyword == value }) else { return value }
        return choice.value
    }
}
