use super::format::bare_url;

#[test]
fn a_base_url_is_kept_without_password_query_or_fragment() {
    assert_eq!(
        bare_url("https://user:secret@proxy.example/v1?key=sk-1#x"),
        "https://proxy.example/v1"
    );
    assert_eq!(
        bare_url("http://127.0.0.1:11434/v1"),
        "http://127.0.0.1:11434/v1"
    );
    assert_eq!(
        bare_url("https://api.example?token=1"),
        "https://api.example"
    );
}
