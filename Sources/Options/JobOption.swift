import Foundation
import PrintGraphics
import PrintModel

/// Where an option may be given. Each option says it once, in its declaration; every reader of
/// options asks the declarations, never a list of its own.
public struct OptionSources: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A flag of `swiftprint convert`, `preview` and `print`.
    public static let commandLine = OptionSources(rawValue: 1)
    /// A print job's options: `lp -o name=value` (the CUPS filter's argv[5]).
    public static let printJob = OptionSources(rawValue: 2)
    /// The swiftprint queue's defaults: the PPD's `*Default…` keywords.
    public static let queueDefaults = OptionSources(rawValue: 4)

    /// Options a stranger's print job may set as well as the user at the command line.
    public static let everywhere: OptionSources = [.commandLine, .printJob]
}

/// How the queue's PPD offers an option: its label and choices, so that `lpoptions -l` lists it
/// and an administrator can set the queue's default. A choice's keyword stands for a value
/// (`Title` → the header template `{title}`); a job may also give any value directly.
public struct PPDPresentation: Sendable {
    public struct Choice: Sendable {
        public let keyword: String
        public let label: String
        /// What the keyword means; empty means none (no header).
        public let value: String
    }

    public let label: String
    public let defaultKeyword: String
    public let choices: [Choice]

    public init(_ label: String, default defaultKeyword: String, _ choices: [(keyword: String, label: String, value: String)]) {
        self.label = label
        self.defaultKeyword = defaultKeyword
        self.choices = choices.map { Choice(keyword: $0.keyword, label: $0.label, value: $0.value) }
    }

    /// What `text` means: a choice's keyword becomes its value; anything else is itself.
    func resolve(_ text: String) -> String {
        choices.first { $0.keyword == text }?.value ?? text
    }
}

/// What an option is when nobody gives it, as the manual says it.
public enum OptionDefault: Sendable, Equatable {
    /// A value fresh settings already hold, written as the option takes it (`lrtb`, `off`, a
    /// limit): given, it changes nothing.
    case value(String)
    /// Fresh settings hold none, so a later source or the handler decides; the text says what
    /// happens then (`one page a side`, `the queue's paper, else A4 or Letter by the locale`).
    case unset(String)
}

/// How an option is written at the command line.
public enum CommandLineForm: Sendable, Equatable {
    /// `--name VALUE`.
    case option
    /// `--name`: on.
    case flag
    /// On by default; `--no-name` turns it off.
    case invertedFlag
}

/// Everything a reader of options needs to know of one, whatever its value's type.
public protocol DeclaredOption: Sendable {
    /// The IPP/CUPS name (`number-up`, `print-color-mode`), or `swiftprint-…` where IPP has none.
    var name: String { get }
    /// Other names the same option answers to (`PageSize`, `wrap`).
    var aliases: [String] { get }
    /// The flag's name without `--` (`title` for `job-name`).
    var commandLineName: String { get }
    var commandLineForm: CommandLineForm { get }
    var help: String { get }
    /// Shown after the help in `--help`.
    var discussion: String { get }
    /// Stands for the value in `--help` (`n`, `lengths`).
    var valueName: String? { get }
    var sources: OptionSources { get }
    var ppd: PPDPresentation? { get }
    /// A value that changes the settings, for the test that follows every option to each place it
    /// is declared for.
    var example: String { get }
    /// Whether its value is text that may hold spaces and braces (a title, a template, a font
    /// name): what libcups can split or turn into a collection on the way from `lp -o`.
    var takesFreeText: Bool { get }
    /// The words its value may be, when they can be listed (`one-sided`, `A4`); empty otherwise.
    var keywords: [String] { get }
    /// Its default as declared; nil when it is found from the keywords (see `defaultValue`).
    var declaredDefault: OptionDefault? { get }
    /// Sets the option from its written form; a value it does not take throws, naming it.
    func apply(text: String, to settings: inout JobSettings) throws
    /// Sets the option from its command-line text, naming it `--name` in an error.
    func apply(commandLineText text: String, to settings: inout JobSettings) throws
}

extension DeclaredOption {
    /// Whether `name` (any case) is this option's name or one of its aliases.
    public func answers(to name: String) -> Bool {
        let lower = name.lowercased()
        return self.name == lower || aliases.contains { $0.lowercased() == lower }
    }
}

extension DeclaredOption {
    /// What the option is when nobody gives it: the declared default, or else the keyword (or
    /// for a flag, `on` or `off`) that, applied to fresh settings, changes nothing. Nil when
    /// neither says; a test holds that none is nil and that a declared value changes nothing.
    public var defaultValue: OptionDefault? {
        if let declaredDefault { return declaredDefault }
        let candidates = commandLineForm == .option && !keywords.isEmpty ? keywords : (isOnOff ? ["off", "on"] : [])
        return candidates.first { leavesFreshSettings($0) }.map(OptionDefault.value)
    }

    /// Whether applying `text` to fresh settings leaves them as they were.
    public func leavesFreshSettings(_ text: String) -> Bool {
        var settings = JobSettings()
        guard (try? apply(text: text, to: &settings)) != nil else { return false }
        return settings == JobSettings()
    }

    /// Whether it takes `on` and `off` (a flag, or a yes-or-no option).
    var isOnOff: Bool {
        var on = JobSettings(), off = JobSettings()
        return (try? apply(text: "on", to: &on)) != nil && (try? apply(text: "off", to: &off)) != nil && on != off
    }
}

/// One option, declared once: its names, its value's type, the values it takes, its help text,
/// where it may come from, how the PPD offers it, and what it sets in `JobSettings`.
public struct JobOption<Value: OptionValue>: DeclaredOption {
    public let name: String
    public let aliases: [String]
    public let commandLineName: String
    public let commandLineForm: CommandLineForm
    public let help: String
    public let discussion: String
    public let valueName: String?
    public let sources: OptionSources
    public let ppd: PPDPresentation?
    public let example: String
    public let declaredDefault: OptionDefault?
    /// The values it takes, said in an error (`1 to 999`).
    let expects: String
    let parse: @Sendable (String) -> Value?
    let isValid: @Sendable (Value) -> Bool
    let store: @Sendable (inout JobSettings, Value) -> Void

    public init(_ name: String, aliases: [String] = [], commandLine: String? = nil, form: CommandLineForm = .option,
                sources: OptionSources = .everywhere, help: String, discussion: String = "", valueName: String? = nil,
                ppd: PPDPresentation? = nil, expects: String, example: String, default declaredDefault: OptionDefault? = nil,
                parse: (@Sendable (String) -> Value?)? = nil, valid isValid: @escaping @Sendable (Value) -> Bool = { _ in true },
                set store: @escaping @Sendable (inout JobSettings, Value) -> Void) {
        self.name = name; self.aliases = aliases
        commandLineName = commandLine ?? (name.hasPrefix("swiftprint-") ? String(name.dropFirst(11)) : name)
        commandLineForm = form; self.sources = ppd == nil ? sources : sources.union(.queueDefaults); self.help = help; self.discussion = discussion
        self.valueName = valueName; self.ppd = ppd; self.expects = expects; self.example = example
        self.declaredDefault = declaredDefault
        self.parse = parse ?? { Value(optionText: $0) }
        self.isValid = isValid; self.store = store
    }

    public var takesFreeText: Bool { Value.self == String.self || Value.self == Font.self || Value.self == EdgeInsets.self }
    public var keywords: [String] { commandLineForm == .option ? Value.keywords : [] }

    /// Sets the option from its command-line text (a flag's is "true" or "false"), naming it
    /// `--name` in an error.
    public func apply(commandLineText text: String, to settings: inout JobSettings) throws {
        try apply(text: text, to: &settings, shownAs: "--" + commandLineName)
    }

    public func apply(text: String, to settings: inout JobSettings) throws {
        try apply(text: text, to: &settings, shownAs: nil)
    }

    /// `apply(text:to:)`, naming the option as `shownName` in an error (`--copies`).
    func apply(text: String, to settings: inout JobSettings, shownAs shownName: String?) throws {
        let meant = ppd?.resolve(text) ?? text
        guard let value = parse(meant), isValid(value) else { throw invalid(text, named: shownName) }
        store(&settings, value)
    }

    func invalid(_ text: String, named shownName: String?) -> PrintError {
        PrintError(.invalidOption, "\(shownName ?? name) \"\(text)\" is not valid (\(expects))")
    }
}
