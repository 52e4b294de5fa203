import Foundation
import ShopYCore

/// The one store: intents in (from keys and from effects), reduced in order on one queue; each
/// new state goes to `onState` (the driver draws it), each effect to the runner.
public final class BrowseStore: @unchecked Sendable {
    private let queue = DispatchQueue(label: "shopy.browse.store-state")
    private var state: BrowseState
    private var runner: BrowseEffectRunner!
    private let onState: @Sendable (BrowseState) -> Void

    public init(initial: BrowseState, services: any BrowseServices, onState: @escaping @Sendable (BrowseState) -> Void) {
        state = initial
        self.onState = onState
        runner = BrowseEffectRunner(services: services) { [weak self] intent in self?.dispatch(intent) }
    }

    public func dispatch(_ intent: BrowseIntent) {
        queue.async { [self] in
            let (next, effects) = BrowseReducer.reduce(state, intent)
            state = next
            onState(next)
            if next.quit { return }
            for effect in effects { runner.run(effect) }
        }
    }

    public var current: BrowseState { queue.sync { state } }

    public func stop() { runner.stop() }
}
