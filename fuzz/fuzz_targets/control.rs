#![no_main]
//! The control API's request parser (the one the socket server uses): never panics; an
//! accepted request re-serialises to a line that parses back to the same request.
use libfuzzer_sys::fuzz_target;
use sobre_node::api::{API_VERSION, RequestLine};
use sobre_node::control::parse_request;

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = parse_request(data) {
        let line = RequestLine {
            v: API_VERSION,
            request,
        };
        let text = serde_json::to_string(&line).unwrap();
        assert!(!text.contains('\n'), "a request line must be one line");
        let again = parse_request(text.as_bytes()).expect("a re-serialised request parses");
        assert_eq!(again, line.request);
    }
});
