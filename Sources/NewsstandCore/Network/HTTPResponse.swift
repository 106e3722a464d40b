import Foundation

/// A whole response to a blocking ``HTTPClient/fetch(_:)``: the final response's head and its (decoded) body.
public struct HTTPResponse: Sendable, Equatable {
    public var head: HTTPResponseHead
    public var body: Data

    public init(head: HTTPResponseHead, body: Data) {
        self.head = head
        self.body = body
    }

    public var status: Int { head.status }
}
