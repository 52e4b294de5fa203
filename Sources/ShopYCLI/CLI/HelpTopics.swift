import ShopYCore
/// `shopy help environment` and `shopy help files`: the environment and files table
/// (`EnvironmentTable`), the same rows as the man page's ENVIRONMENT and FILES.
enum HelpTopics {
    static let names = ["environment", "files"]

    static func text(_ topic: String, width: Int) -> String? {
        var out: [String] = []
        switch topic {
        case "environment":
            out += Help.wrap("OVERVIEW: The environment variables shopy reads. An option on the command line beats its SHOPY_* variable, which beats 'shopy config'.",
                             width: width, indent: 0, hanging: 10)
            out += Help.section("VARIABLES", EnvironmentTable.variables.map { ($0.label, $0.meaning) }, width: width)
        case "files":
            out += Help.wrap("OVERVIEW: The files shopy keeps in $SHOPY_HOME, else $XDG_DATA_HOME/shopy, else ~/.local/share/shopy (mode 0700; files 0600). 'shopy doctor' checks them.",
                             width: width, indent: 0, hanging: 10)
            out += Help.section("FILES", EnvironmentTable.files.map { ($0.label, $0.meaning) }, width: width)
        default:
            return nil
        }
        return out.joined(separator: "\n") + "\n"
    }
}
