/// Short, exact descriptions of byte counts for error messages ("2 GiB", "1.5 MiB", "300 bytes").
enum ByteCountText {
    static func describe(_ bytes: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where bytes >= size {
            if bytes % size == 0 { return "\(bytes / size) \(name)" }
            let value = Double(bytes) / Double(size)
            return "\((value * 10).rounded() / 10) \(name)"
        }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
