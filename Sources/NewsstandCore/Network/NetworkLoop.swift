import CCurl
import Foundation
import Synchronization

/// One libcurl multi handle driven by one thread: every transfer of an ``HTTPClient`` runs here, sharing
/// connections (keep-alive, HTTP/2) and the rate limit.
///
/// Other threads never touch libcurl handles: they queue a ``Command`` in `inbox` and wake the thread with
/// `curl_multi_wakeup`, which `curl_multi_poll` returns for. The thread owns everything else without locks.
/// libcurl itself is opened (and `curl_global_init` run, once) by ``Libcurl/shared`` before the first loop is made.
// @unchecked: the multi handle, the easy handles (`transfers`) and `rateLimit` are used only on the network thread;
// other threads reach it only through `inbox`, a Mutex.
final class NetworkLoop: @unchecked Sendable {
    /// Work handed to the network thread.
    enum Command: Sendable {
        case start(CurlTransfer.Setup)
        case cancel(Int)
        case resume(Int)
        /// The credentials looked up for a 401's realm (nil: none), to try once more with.
        case retry(Int, Credentials?)
        case setRateLimit(Int?)
        /// Hands the receive-speed limits of the running rate-limited transfers to the closure (tests).
        case inspectReceiveSpeeds(@Sendable ([Int64]) -> Void)
        case shutdown
    }

    let curl: Libcurl
    private let multi: UnsafeMutableRawPointer
    /// What other threads share with the network thread.
    private struct Inbox {
        var commands: [Command] = []
        var isClosed = false
        /// The network thread (nil once it has ended; the thread is alive while it is set, so it names no other).
        var thread: ObjectIdentifier?
    }
    private let inbox = Mutex(Inbox())

    // The network thread's own state.
    private var transfers: [Int: CurlTransfer] = [:]
    private var rateLimit: Int?

    init(curl: Libcurl, maxConnectionsPerHost: Int) {
        self.curl = curl
        multi = curl.multiInit()!
        curl.setOption(multi: multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        // Several transfers to one HTTP/2 server share its connection rather than opening more.
        curl.setOption(multi: multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in run() }
        thread.name = "Newsstand network"
        thread.qualityOfService = .userInitiated
        let id = ObjectIdentifier(thread)
        inbox.withLock { $0.thread = id }
        thread.start()
    }

    /// Whether the caller is the network thread (where blocking on a transfer would deadlock).
    var isNetworkThread: Bool {
        let current = ObjectIdentifier(Thread.current)
        return inbox.withLock { $0.thread == current }
    }

    /// Queues a command and wakes the thread; false when the loop has shut down.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.isClosed else { return false }
            inbox.commands.append(command)
            // Inside the lock: once `isClosed` is set the multi handle may be gone.
            curl.wakeUp(multi)
            return true
        }
    }

    // MARK: The network thread

    private func run() {
        var running: Int32 = 0
        while true {
            let commands = inbox.withLock { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            var shuttingDown = false
            for command in commands {
                if case .shutdown = command { shuttingDown = true; break }
                handle(command)
            }
            if shuttingDown { break }
            curl.perform(multi, &running)
            collectCompleted()
            curl.poll(multi, timeoutMilliseconds: 1000)
        }
        let leftover = inbox.withLock { inbox in
            inbox.isClosed = true
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
        for transfer in transfers.values {
            curl.remove(transfer.easy, from: multi)
            transfer.end(with: .cancelled)
        }
        transfers.removeAll()
        for case .start(let setup) in leftover {
            setup.handle.unlessCancelled { setup.events(.failed(.cancelled)) }
        }
        curl.multiCleanup(multi)
        inbox.withLock { $0.thread = nil }
    }

    private func handle(_ command: Command) {
        switch command {
        case .start(let setup):
            let transfer = CurlTransfer(setup)
            if let failure = transfer.configure(rateLimitShare: 0) {
                transfer.end(with: failure)
                return
            }
            transfers[setup.handle.id] = transfer
            curl.add(transfer.easy, to: multi)
            rebalanceRateLimit()
        case .cancel(let id):
            guard let transfer = transfers.removeValue(forKey: id) else { return }
            if transfer.isInMulti { curl.remove(transfer.easy, from: multi) }
            transfer.end(with: .cancelled)
            rebalanceRateLimit()
        case .resume(let id):
            guard let transfer = transfers[id], transfer.isInMulti else { return }
            curl.pause(transfer.easy, newsstand_curlpause_cont())
        case let .retry(id, credentials):
            guard let transfer = transfers[id] else { return }
            if transfer.prepareRetry(with: credentials) {
                curl.add(transfer.easy, to: multi)
                transfer.isInMulti = true
            } else {
                transfers[id] = nil
                transfer.endWithLoginFailure()
            }
            rebalanceRateLimit()
        case .setRateLimit(let limit):
            rateLimit = limit.map { max(1, $0) }
            rebalanceRateLimit()
        case .inspectReceiveSpeeds(let reply):
            reply(transfers.values.filter { $0.isInMulti && $0.request.isRateLimited }.map(\.receiveSpeedLimit).sorted())
        case .shutdown:
            break
        }
    }

    /// Shares the rate limit equally among the rate-limited transfers running now (paused ones included).
    private func rebalanceRateLimit() {
        let limited = transfers.values.filter { $0.isInMulti && $0.request.isRateLimited }
        guard !limited.isEmpty else { return }
        let share = rateLimit.map { Int64(max(1, $0 / limited.count)) } ?? 0
        for transfer in limited where transfer.receiveSpeedLimit != share {
            transfer.setReceiveSpeedLimit(share)
        }
    }

    private func collectCompleted() {
        var remaining: Int32 = 0
        var changed = false
        while let message = curl.nextMessage(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl.remove(easy, from: multi)
            guard let transfer = CurlTransfer.owning(easy, curl: curl) else { continue }
            transfer.isInMulti = false
            changed = true
            switch transfer.complete(code) {
            case .ended:
                transfers[transfer.id] = nil
            case .needsCredentials(let lookup):
                // Looking a login up may read a file: not on this thread.
                let id = transfer.id
                DispatchQueue.global(qos: .userInitiated).async { [self] in
                    submit(.retry(id, lookup()))
                }
            }
        }
        if changed { rebalanceRateLimit() }
    }
}
