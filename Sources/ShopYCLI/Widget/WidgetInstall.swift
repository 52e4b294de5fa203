import ShopYCore
import ShopYBase
/// The snippets `shopy widget install BAR` prints, with this shopy's path filled in.
public enum WidgetInstall {
    public enum Bar: String, Sendable, CaseIterable {
        case waybar, i3blocks, polybar, tmux, swiftbar
    }

    /// `'…'` for a POSIX shell (the snippets that go through one: i3blocks, polybar, tmux, SwiftBar).
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    public static func snippet(_ bar: Bar, executable: String, name: String, home: String) -> String {
        let named = name == WidgetConfiguration.defaultName ? "" : " --name \(name)"
        let q = quoted(executable)
        switch bar {
        case .waybar:
            return """
            // ~/.config/waybar/config: add "custom/shopy" to modules-right, then:
            "custom/shopy": {
                "exec": \(JSONWriter.string(.string(executable + " widget --format waybar" + named))),
                "return-type": "json",
                "interval": 30,
                "tooltip": true,
                "on-click": \(JSONWriter.string(.string(executable + " widget open 1" + named))),
                "on-click-right": \(JSONWriter.string(.string(executable + " widget refresh" + named)))
            }

            """
        case .i3blocks:
            return """
            # ~/.config/i3blocks/config
            [shopy]
            command=\(q) widget --format i3blocks\(named); [ -n "$button" ] && [ "$button" = 1 ] && \(q) widget open 1\(named) >/dev/null
            interval=30

            """
        case .polybar:
            return """
            ; ~/.config/polybar/config.ini: add shopy to modules-right, then:
            [module/shopy]
            type = custom/script
            exec = \(q) widget --format polybar --color always\(named)
            interval = 30
            click-left = \(q) widget open 1\(named)
            click-right = \(q) widget refresh\(named)

            """
        case .tmux:
            // tmux keeps single quotes literal inside double quotes; /bin/sh reads them in #(…).
            let command = q + " widget --format tmux" + named
            return """
            # ~/.tmux.conf
            set -g status-interval 30
            set -g status-right "#(\(command)) %H:%M"

            """
        case .swiftbar:
            return """
            #!/bin/sh
            # SwiftBar / xbar plugin: save as shopy.5m.sh in the plugin folder and chmod +x it.
            # The store: \(home)
            # <swiftbar.hideRunInTerminal>true</swiftbar.hideRunInTerminal>
            exec \(q) widget --format swiftbar --family medium\(named)

            """
        }
    }
}
