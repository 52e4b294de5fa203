import ShopYCore
/// One key press as the browse reducer sees it, decoded from the terminal's bytes by
/// `KeyDecoder` (Terminal/). A value with no terminal in it, so the reducer stays pure.
public enum Key: Hashable, Sendable {
    /// Printable text: one Unicode scalar (a Hangul syllable, a letter, an emoji scalar).
    case char(Unicode.Scalar)
    /// Alt (or Esc quickly followed by) a printable character.
    case alt(Unicode.Scalar)
    /// Ctrl with a letter: `.ctrl("c")` is Ctrl-C.
    case ctrl(Character)
    case enter, tab, backTab, escape, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
}
