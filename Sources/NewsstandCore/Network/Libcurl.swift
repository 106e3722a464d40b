import CCurl

/// libcurl's functions, opened the first time the network is used (``shared``) instead of linked, so the program
/// starts without loading libcurl and the two dozen libraries it brings (see `CCurl/shim.h`). The variadic
/// `curl_easy_setopt`/`getinfo` and `curl_multi_setopt` are overloaded here by argument type.
// @unchecked: `api` points to libcurl's function table, filled once before it is shared and only read after.
struct Libcurl: @unchecked Sendable {
    /// The entry points; filled once and never freed (the library stays loaded for the life of the process).
    private let api: UnsafePointer<newsstand_curl>

    /// The library's name for the dynamic loader: Debian's libcurl4 package.
    static let soname = NEWSSTAND_CURL_SONAME

    /// The library, opened and globally initialised on first use (thread-safe: a `static let`), or why it cannot be.
    static let shared: Result<Libcurl, HTTPError> = open(soname: soname)

    /// Opens `soname` and runs `curl_global_init`. Not cached: use ``shared``, except to test a missing library.
    static func open(soname: String) -> Result<Libcurl, HTTPError> {
        let api = UnsafeMutablePointer<newsstand_curl>.allocate(capacity: 1)
        api.initialize(to: newsstand_curl())
        if let failure = newsstand_curl_open(soname, api) {
            api.deallocate()
            return .failure(.networkUnavailable(detail: String(cString: failure)))
        }
        let code = api.pointee.global_init(newsstand_curl_global_all())
        guard code == CURLE_OK else {
            return .failure(.networkUnavailable(detail: "curl_global_init failed (\(Libcurl(api: api).describe(code)))"))
        }
        return .success(Libcurl(api: api))
    }

    // MARK: Easy handles

    func easyInit() -> UnsafeMutableRawPointer? { api.pointee.easy_init() }
    func easyCleanup(_ easy: UnsafeMutableRawPointer) { api.pointee.easy_cleanup(easy) }
    func pause(_ easy: UnsafeMutableRawPointer, _ bitmask: Int32) { _ = api.pointee.easy_pause(easy, bitmask) }
    func describe(_ code: CURLcode) -> String { api.pointee.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)" }

    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) -> CURLcode {
        newsstand_curl_easy_setopt_long(api, easy, option, value)
    }
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String?) -> CURLcode {
        newsstand_curl_easy_setopt_string(api, easy, option, value)
    }
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, pointer value: UnsafeMutableRawPointer?) -> CURLcode {
        newsstand_curl_easy_setopt_pointer(api, easy, option, value)
    }
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, offset value: Int64) -> CURLcode {
        newsstand_curl_easy_setopt_off_t(api, easy, option, curl_off_t(value))
    }
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ list: UnsafeMutablePointer<curl_slist>?) -> CURLcode {
        newsstand_curl_easy_setopt_slist(api, easy, option, list)
    }
    /// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ callback: curl_write_callback) -> CURLcode {
        newsstand_curl_easy_setopt_write_callback(api, easy, option, callback)
    }
    /// CURLOPT_XFERINFOFUNCTION.
    func setOption(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ callback: curl_xferinfo_callback) -> CURLcode {
        newsstand_curl_easy_setopt_xferinfo_callback(api, easy, option, callback)
    }

    func info(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO, _ value: inout Int) -> CURLcode {
        newsstand_curl_easy_getinfo_long(api, easy, info, &value)
    }
    func info(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO, _ value: inout UnsafePointer<CChar>?) -> CURLcode {
        newsstand_curl_easy_getinfo_string(api, easy, info, &value)
    }
    /// The `CURLINFO_*_T` values (curl_off_t).
    func info(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO, offset value: inout curl_off_t) -> CURLcode {
        newsstand_curl_easy_getinfo_off_t(api, easy, info, &value)
    }
    func info(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO, _ value: inout UnsafeMutableRawPointer?) -> CURLcode {
        newsstand_curl_easy_getinfo_pointer(api, easy, info, &value)
    }

    func append(_ list: UnsafeMutablePointer<curl_slist>?, _ line: String) -> UnsafeMutablePointer<curl_slist>? {
        api.pointee.slist_append(list, line)
    }
    func free(_ list: UnsafeMutablePointer<curl_slist>?) { api.pointee.slist_free_all(list) }

    // MARK: The multi handle

    func multiInit() -> UnsafeMutableRawPointer? { api.pointee.multi_init() }
    func multiCleanup(_ multi: UnsafeMutableRawPointer) { _ = api.pointee.multi_cleanup(multi) }
    func setOption(multi: UnsafeMutableRawPointer, _ option: CURLMoption, _ value: Int) {
        _ = newsstand_curl_multi_setopt_long(api, multi, option, value)
    }
    func add(_ easy: UnsafeMutableRawPointer, to multi: UnsafeMutableRawPointer) { _ = api.pointee.multi_add_handle(multi, easy) }
    func remove(_ easy: UnsafeMutableRawPointer, from multi: UnsafeMutableRawPointer) { _ = api.pointee.multi_remove_handle(multi, easy) }
    func perform(_ multi: UnsafeMutableRawPointer, _ running: inout Int32) { _ = api.pointee.multi_perform(multi, &running) }
    func poll(_ multi: UnsafeMutableRawPointer, timeoutMilliseconds: Int32) { _ = api.pointee.multi_poll(multi, nil, 0, timeoutMilliseconds, nil) }
    func wakeUp(_ multi: UnsafeMutableRawPointer) { _ = api.pointee.multi_wakeup(multi) }
    func nextMessage(_ multi: UnsafeMutableRawPointer, _ remaining: inout Int32) -> UnsafeMutablePointer<CURLMsg>? {
        api.pointee.multi_info_read(multi, &remaining)
    }
}
