import ShopYCore
import ShopYBase
/// Where each setting's value comes from: a command-line option beats the environment, which
/// beats `shopy config`, which beats the built-in default.
public struct ConfigResolution: Sendable {
    public enum Origin: Equatable, Sendable {
        case environment(String)
        case config
        case builtIn

        public var name: String {
            switch self {
            case .environment: return "environment"
            case .config: return "config"
            case .builtIn: return "default"
            }
        }

        /// `environment (SHOPY_SIZE)`, `config`, `default`.
        public var description: String {
            if case .environment(let variable) = self { return "environment (\(variable))" }
            return name
        }
    }

    public struct Entry: Sendable {
        public var key: ConfigKey
        /// The value in its normal form; nil for a built-in default (see `key.builtIn`) and for
        /// a value that is not accepted.
        public var value: String?
        public var origin: Origin
        /// Why the value from `origin` is not accepted (the error a command that uses it stops
        /// with, unless the option is on its command line); nil when it is fine.
        public var invalid: UsageError?
        /// The value as found, when it is not accepted.
        public var rejected: String?

        init(key: ConfigKey, value: String?, origin: Origin, invalid: UsageError? = nil, rejected: String? = nil) {
            self.key = key
            self.value = value
            self.origin = origin
            self.invalid = invalid
            self.rejected = rejected
        }

        /// What `config list` and `config get` show: the value, the built-in default, or the
        /// value that is refused, as found.
        public var shown: String { value ?? rejected ?? key.builtIn }
    }

    public var entries: [Entry]

    public func entry(_ name: String) -> Entry? { entries.first { $0.key.name == name } }

    /// Checks the environment and the stored values. A bad value in either does not stop the
    /// resolution: its entry carries the error (`invalid`), which a command that would use the
    /// value throws (`apply`), and which `config list` and `doctor` report.
    public static func resolve(environment: [String: String], stored: [String: String]) -> ConfigResolution {
        var entries: [Entry] = []
        for key in ConfigKey.all {
            if key.name == "color", let (mode, variable) = ColorMode.fromEnvironment(environment), variable != "SHOPY_COLOR" {
                entries.append(Entry(key: key, value: mode.rawValue, origin: .environment(variable)))
                continue
            }
            if let text = environment[key.variable], !text.isEmpty {
                do throws(UsageError) {
                    let value = try key.validate(text, origin: "\(key.variable) value")
                    entries.append(Entry(key: key, value: value, origin: .environment(key.variable)))
                } catch {
                    entries.append(Entry(key: key, value: nil, origin: .environment(key.variable), invalid: error, rejected: text))
                }
            } else if let text = stored[key.name] {
                do throws(UsageError) {
                    entries.append(Entry(key: key, value: try key.validate(text, origin: "config value"), origin: .config))
                } catch {
                    let refused = UsageError(error.message + " (in preferences.json)", hint: "shopy config set \(key.name) VALUE, or shopy config unset \(key.name)")
                    entries.append(Entry(key: key, value: nil, origin: .config, invalid: refused, rejected: text))
                }
            } else {
                entries.append(Entry(key: key, value: nil, origin: .builtIn))
            }
        }
        return ConfigResolution(entries: entries)
    }

    /// The entries whose value is refused.
    public var invalidEntries: [Entry] { entries.filter { $0.invalid != nil } }

    /// Fills in the options the command line left out from the environment and the config, for
    /// the command at `path`. Values were checked by `resolve`; the command checks them again
    /// as if typed, so a default can never be something the option itself would refuse.
    /// A refused value stops the command (64) only when it would be used: the option is the
    /// command's and not on its command line; `config` and `doctor` report such values instead.
    public func apply(to parsed: inout ParsedArguments, spec: CommandSpec, path: String) throws(UsageError) {
        let reportsThemselves = ConfigDefaults.reportSettingsThemselves.contains(String(path.split(separator: " ").first ?? ""))
        for entry in entries {
            guard entry.key.applies(to: path), let option = spec.option(named: entry.key.option),
                  !parsed.flags.contains(option.name), parsed.values[option.name] == nil else { continue }
            if option.name == "format" && parsed.flags.contains("json") { continue }
            if let invalid = entry.invalid {
                if reportsThemselves { continue }
                throw invalid
            }
            guard let value = entry.value else { continue }
            // A listing format this command does not have (`format = csv` for `likes alerts`,
            // which prints a table or JSON) is not its default: it keeps its own.
            // (A source list, `11st,coupang`, is a value of --source when each name is one.)
            if !option.choices.isEmpty && !value.split(separator: ",").allSatisfy({ option.choices.contains(String($0)) }) { continue }
            if option.isFlag {
                if value == "true" { parsed.flags.insert(option.name) }
            } else {
                parsed.values[option.name] = [value]
            }
        }
    }

    /// The colour mode: `--color`, else the environment and config.
    public func colorMode(_ parsed: ParsedArguments) throws(UsageError) -> ColorMode {
        if let mode = try GlobalOptions.color.read(parsed) { return mode }
        return entry("color")?.value.flatMap(ColorMode.init(rawValue:)) ?? .auto
    }
}

/// Reads the stored config for a command run.
enum ConfigDefaults {
    /// The environment and the stored config. A damaged preferences.json does not stop a
    /// command: it warns and runs on the built-in defaults (`shopy doctor` reports the file).
    /// Commands that read preferences.json themselves, and report its damage their own way.
    static let readPreferencesThemselves: Set<String> = ["history", "popular", "doctor", "config"]
    /// Commands that show refused environment and config values rather than stop on them.
    static let reportSettingsThemselves: Set<String> = ["doctor", "config"]

    static func resolve(io: IO, store: SettingsStore, path: String) -> ConfigResolution {
        var stored: [String: String] = [:]
        do {
            stored = try store.read { $0.config }
        } catch where readPreferencesThemselves.contains(String(path.split(separator: " ").first ?? "")) {
            // Their own error or warning names the file.
        } catch {
            let message = (error as? ShopyError)?.message ?? "\(error)"
            StderrDiagnostics(io: io).warning("\(message); config values are not used")
        }
        return ConfigResolution.resolve(environment: io.environment, stored: stored)
    }
}
