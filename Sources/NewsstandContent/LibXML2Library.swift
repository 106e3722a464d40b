import CLibXML2

/// libxml2, opened with dlopen at its first use rather than linked (CLibXML2's table): whether it could be, in
/// plain words for the error that says why a document could not be read.
public enum LibXML2Library {
    /// Nil when libxml2 is loaded (it is opened by the first call), else why it could not be.
    public static var unavailable: String? {
        newsstand_libxml2_failure().map { explanation(loaderWords: String(cString: $0)) }
    }

    /// The sentence for a library the dynamic loader could not open, with its own words.
    static func explanation(loaderWords: String) -> String {
        "reading XML needs \(NEWSSTAND_LIBXML2_SONAME) (Debian's libxml2 package), which could not be loaded: \(loaderWords)"
    }
}
