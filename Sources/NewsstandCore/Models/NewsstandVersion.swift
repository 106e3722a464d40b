/// The program's version, as `--version` prints it.
public enum NewsstandVersion {
    public static let string = "0.1.0"
}
