import Foundation
import Synchronization

/// Two independent blocking calls made at the same time (an account sync's requests that do not wait on each other:
/// the server answers them side by side, so the pair takes the longer of the two instead of their sum). The first
/// runs on a thread of its own (a blocked fetch would hold one of Dispatch's few threads), the second on the caller's.
enum BothAtOnce {
    /// Both results; when either throws, the first's error before the second's (both calls have ended by then).
    static func run<A: Sendable, B>(_ first: @escaping @Sendable () throws -> A, _ second: () throws -> B) throws -> (A, B) {
        let slot = ResultSlot<A>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            slot.set(Result { try first() })
            done.signal()
        }
        thread.qualityOfService = Thread.current.qualityOfService
        thread.start()
        let secondResult = Result { try second() }
        done.wait()
        return (try slot.get(), try secondResult.get())
    }

    /// The first call's result, handed from its thread to the caller's.
    private final class ResultSlot<A: Sendable>: Sendable {
        private let result = Mutex<Result<A, Error>?>(nil)

        func set(_ value: Result<A, Error>) { result.withLock { $0 = value } }

        func get() throws -> A {
            guard let result = result.withLock({ $0 }) else { preconditionFailure("read before the call ended") }
            return try result.get()
        }
    }
}
