/// shopy's version: `shopy --version`, the User-Agent of every request.
public enum ShopYVersion {
    public static let current = "0.1.0"
}
