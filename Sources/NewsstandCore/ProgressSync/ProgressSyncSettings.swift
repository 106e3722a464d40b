import Foundation

/// The config file's progress-sync lines: the kosync server, this device's name, how documents are identified, and
/// what to do with a position from another device ahead of ours or behind it.
public struct ProgressSyncSettings: Sendable, Equatable {
    /// How the document id is made (KOReader's `checksum_method`): the partial MD5 of the file, or the MD5 of its name.
    public enum DocumentMethod: String, Sendable, CaseIterable { case binary, filename }
    /// What a newer position from another device ahead of ours does: asked on the status line, jumped to, or nothing.
    public enum Forward: String, Sendable, CaseIterable { case ask, jump, ignore }
    /// What a newer position from another device behind ours does.
    public enum Backward: String, Sendable, CaseIterable { case ask, ignore }

    /// The kosync server's base URL (`progress-sync URL`); nil: progress sync is off.
    public var server: URL?
    /// The device name sent (`progress-sync-device`); nil: the host name.
    public var device: String?
    public var document: DocumentMethod = .binary
    public var forward: Forward = .ask
    public var backward: Backward = .ignore

    public init() {}

    public var isOn: Bool { server != nil }

    /// The name this device goes by: the setting, else the host name, else "newsstand".
    public var deviceName: String {
        if let device, !device.isEmpty { return device }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        return host.isEmpty ? "newsstand" : host
    }

    /// A progress-sync URL from the config: http or https with a host, without a login in it (that goes through
    /// `newsstand login`), a trailing slash dropped.
    public static func serverURL(_ text: String) -> URL? {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
              components.query == nil, components.fragment == nil else { return nil }
        while components.path.hasSuffix("/") { components.path.removeLast() }
        return components.url
    }
}
