//! The page's own address.

use wasm_bindgen::JsCast;

/// The page's address (`location.href`), to resolve relative ones against; empty when there
/// is no window.
pub fn page_address() -> String {
    web_sys::window()
        .and_then(|window| window.location().href().ok())
        .unwrap_or_default()
}

/// The page's origin (`location.origin`); empty when there is no window.
pub fn page_origin() -> String {
    web_sys::window()
        .and_then(|window| window.location().origin().ok())
        .unwrap_or_default()
}

/// The decoded parameters of the page's query string, in order (a name may come twice).
pub fn query_parameters() -> Vec<(String, String)> {
    let Some(search) = web_sys::window().and_then(|window| window.location().search().ok()) else {
        return Vec::new();
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let Ok(Some(entries)) = js_sys::try_iter(params.as_ref()) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pair: js_sys::Array = entry.dyn_into().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// `pairs` as a query string (`db=demo%2Fshop.db&q=…`, without the `?`), encoded as the
/// browser encodes forms.
pub fn query_string(pairs: &[(String, String)]) -> String {
    let Ok(params) = web_sys::UrlSearchParams::new() else {
        return String::new();
    };
    for (name, value) in pairs {
        params.append(name, value);
    }
    params.to_string().into()
}

/// `url` resolved against the page's address (`href`), or `None` when it is not an address.
pub fn resolve_against_page(url: &str) -> Option<String> {
    web_sys::Url::new_with_base(url, &page_address())
        .ok()
        .map(|u| u.href())
}

/// The last segment of `url`'s path (resolved against the page's address), decoded: what a
/// download is named after. `None` when there is none.
pub fn last_path_segment(url: &str) -> Option<String> {
    let path = web_sys::Url::new_with_base(url, &page_address())
        .ok()?
        .pathname();
    let last = path.rsplit('/').next().unwrap_or_default().to_string();
    let decoded = js_sys::decode_uri_component(&last).ok()?;
    Some(String::from(decoded)).filter(|name| !name.is_empty())
}
