import ShopYCore
import ShopYBase
/// The scripts `shopy completions SHELL` prints. They are thin on purpose: on each Tab they
/// hand the words to `shopy __complete`, which answers from the same command declarations as
/// `--help` and from the store, so a script never goes stale when shopy gains an option.
public enum CompletionScripts {
    public static func script(for shell: Completer.Shell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    static let bash = #"""
    # shopy completion for bash. Install:
    #   mkdir -p ~/.local/share/bash-completion/completions
    #   shopy completions bash > ~/.local/share/bash-completion/completions/shopy
    # or add to ~/.bashrc:  eval "$(shopy completions bash)"
    _shopy() {
        local line=${COMP_LINE:0:COMP_POINT}
        local -a words
        read -r -a words <<< "$line"
        if [[ $line == *[[:space:]] ]]; then words+=(""); fi
        COMPREPLY=()
        local candidate
        while IFS= read -r candidate; do
            if [[ $candidate == __shopy_files__ ]]; then
                compopt -o filenames 2>/dev/null
                while IFS= read -r candidate; do COMPREPLY+=("$candidate"); done < <(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")
                return 0
            fi
            COMPREPLY+=("$candidate")
        done < <(command shopy __complete bash -- "${words[@]:1}" 2>/dev/null)
        return 0
    }
    complete -F _shopy shopy

    """#

    static let zsh = #"""
    #compdef shopy
    # shopy completion for zsh. Install:
    #   mkdir -p ~/.zfunc && shopy completions zsh > ~/.zfunc/_shopy
    # and in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
    # (or, after compinit:  source <(shopy completions zsh))
    _shopy() {
        local -a out values shown
        local line
        out=("${(@f)$(command shopy __complete zsh -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
        if [[ ${out[1]} == __shopy_files__ ]]; then
            _files
            return
        fi
        for line in "${out[@]}"; do
            [[ -n $line ]] || continue
            values+=("${line%%$'\t'*}")
            shown+=("${line%%$'\t'*}  -- ${line#*$'\t'}")
        done
        (( ${#values} )) && compadd -l -d shown -- "${values[@]}"
    }
    if [[ $funcstack[1] == _shopy ]]; then
        _shopy "$@"
    else
        compdef _shopy shopy 2>/dev/null
    fi

    """#

    static let fish = #"""
    # shopy completion for fish. Install:
    #   mkdir -p ~/.config/fish/completions
    #   shopy completions fish > ~/.config/fish/completions/shopy.fish
    function __shopy_complete
        set -l tokens (commandline -opc)
        set -l current (commandline -ct)
        set -l out (command shopy __complete fish -- $tokens[2..-1] "$current" 2>/dev/null)
        if test "$out[1]" = __shopy_files__
            __fish_complete_path "$current"
            return
        end
        printf '%s\n' $out
    end
    complete -c shopy -f -a '(__shopy_complete)'

    """#
}

/// `shopy completions bash|zsh|fish`
public struct CompletionsCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            Commands, subcommands, options and their values complete; so do rows of the last listing (with titles), liked productIds (with titles), history queries for search, saved popular sections and config keys, which the script asks shopy for on each Tab.
            bash:  mkdir -p ~/.local/share/bash-completion/completions && shopy completions bash > ~/.local/share/bash-completion/completions/shopy   (or in ~/.bashrc: eval "$(shopy completions bash)")
            zsh:  mkdir -p ~/.zfunc && shopy completions zsh > ~/.zfunc/_shopy   and in ~/.zshrc, before compinit: fpath=(~/.zfunc $fpath)
            fish:  mkdir -p ~/.config/fish/completions && shopy completions fish > ~/.config/fish/completions/shopy.fish
            """,
        arguments: [ArgumentSpec("shell", help: "bash, zsh or fish.")],
        examples: ["shopy completions bash > ~/.local/share/bash-completion/completions/shopy", "shopy completions zsh > ~/.zfunc/_shopy",
                   "shopy completions fish > ~/.config/fish/completions/shopy.fish"])

    public var shell: Completer.Shell

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else {
            throw UsageError("completions needs one shell: bash, zsh or fish", hint: "e.g. shopy completions bash")
        }
        let name = parsed.positionals[0]
        guard let shell = Completer.Shell(rawValue: name.lowercased()) else {
            // A positional, not an option: no `--shell` in the message.
            let names = Completer.Shell.allCases.map(\.rawValue)
            throw UsageError("unknown shell '\(Echo.value(name))'; shopy has scripts for \(names.joined(separator: ", "))",
                             hint: Suggest.closest(to: name, among: names).map { "did you mean '\($0)'?" })
        }
        self.shell = shell
    }

    public func execute(_ context: Context) async throws -> String {
        CompletionScripts.script(for: shell)
    }

    public var presenter: CompletionScriptPresenter { CompletionScriptPresenter() }

    /// `shopy __complete SHELL -- WORD…` (hidden): the candidates, one a line.
    static func answer(_ arguments: [String], io: IO, store: SettingsStore) -> ExitCode {
        guard let name = arguments.first, let shell = Completer.Shell(rawValue: name) else { return .usage }
        var words = Array(arguments.dropFirst())
        if words.first == "--" { words.removeFirst() }
        let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: store, now: io.now)
        let answer = completer.complete(words)
        // bash replaces only what follows the last '=' or ':' of the word (COMP_WORDBREAKS).
        var drop = ""
        if shell == .bash, let current = words.last, let index = current.lastIndex(where: { $0 == "=" || $0 == ":" }) {
            drop = String(current[...index])
        }
        let asciiOnly = shell == .bash && !Completer.bashReadsASCIIAsASCII(environment: io.environment)
        io.stdout.write(Completer.render(answer, shell: shell, dropPrefix: drop, asciiOnly: asciiOnly))
        return .ok
    }
}
