//! The private file system where kept databases are copied (`browser::opfs`), in headless
//! Chromium: a copy reads back byte for byte, its name is listed, removing it leaves nothing,
//! and a copy that is not there is said as missing.
#![cfg(target_arch = "wasm32")]

use askdb::browser::opfs::{usage_and_quota, Kept, StoreError};
use js_sys::{Array, Uint8Array};
use wasm_bindgen_test::*;
use web_sys::Blob;

wasm_bindgen_test_configure!(run_in_browser);

fn blob(bytes: &[u8]) -> Blob {
    let parts = Array::of1(&Uint8Array::from(bytes));
    Blob::new_with_u8_array_sequence(&parts).unwrap()
}

async fn bytes_of(file: &web_sys::File) -> Vec<u8> {
    let buffer = wasm_bindgen_futures::JsFuture::from(file.array_buffer())
        .await
        .unwrap();
    Uint8Array::new(&buffer).to_vec()
}

#[wasm_bindgen_test]
async fn a_copy_reads_back_byte_for_byte_and_is_gone_once_removed() {
    let kept = Kept::open()
        .await
        .expect("Chromium has a private file system");
    let name = "db-test-copy.sqlite";
    // Every byte value, and more than one write's worth.
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    kept.keep(name, &blob(&bytes)).await.unwrap();
    let file = kept.file(name).await.unwrap();
    assert_eq!(file.size() as usize, bytes.len());
    assert_eq!(bytes_of(&file).await, bytes);
    assert!(kept.names().await.unwrap().contains(&name.to_string()));
    // Kept again: replaced, not appended.
    kept.keep(name, &blob(b"short")).await.unwrap();
    assert_eq!(bytes_of(&kept.file(name).await.unwrap()).await, b"short");

    kept.remove(name).await.unwrap();
    assert!(!kept.names().await.unwrap().contains(&name.to_string()));
    assert_eq!(kept.file(name).await.unwrap_err(), StoreError::Missing);
    kept.remove(name)
        .await
        .expect("removing what is gone is no error");
    let (usage, quota) = usage_and_quota().await.expect("Chromium says its quota");
    assert!(quota > usage, "{usage} of {quota}");
}
