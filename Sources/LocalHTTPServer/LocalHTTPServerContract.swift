// Placeholder until the server lands: LocalHTTPServer.
