/// A row or productId that names nothing usable (no listing yet, a row not in it, a product
/// that is not liked or has no usable id): the user's mistake, exit 64, and nothing changed.
import ShopYBase

package struct SelectionError: ShopyError, Equatable {
    package var message: String
    package var hint: String?

    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}
