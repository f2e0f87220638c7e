//! The askdb page in the book, where the chapters' HTML expects it (`<src>/<dir>/`, which
//! mdBook's HTML renderer copies to `<book>/<dir>/` with the rest of `src`).
//!
//! With `page = "path/to/askdb/dist"` in `[preprocessor.askdb]`, `<src>/<dir>` is made a link
//! to that built page (a copy where links are not available); the renderer copies what the
//! link points to, so the book always has the page as it was built. Without it, `<src>/<dir>`
//! must hold a copy of askdb's `dist/` already.

use std::path::{Path, PathBuf};

/// What askdb's built page has that a demo needs.
const NEEDED: [&str; 2] = ["index.html", "askdb-embed.js"];
/// In a copy this preprocessor made (where links cannot be made).
#[cfg_attr(unix, allow(dead_code))]
const COPY_MARK: &str = ".copied-by-mdbook-askdb";

/// Where the page must be, and where it comes from.
pub struct PageSetting<'a> {
    /// `<src>/<dir>` on disk.
    pub target: PathBuf,
    /// How `target` is called in messages.
    pub target_shown: PathBuf,
    /// `page`, resolved against the book's root, if set.
    pub page: Option<PathBuf>,
    /// How `page` was written in book.toml.
    pub page_shown: Option<&'a str>,
}

/// Puts the page in place (or finds it there); why not, in words for the author.
pub fn ensure(setting: &PageSetting) -> Result<(), String> {
    let Some(page) = &setting.page else {
        return match missing(&setting.target) {
            None => Ok(()),
            Some(file) => Err(format!(
                "the askdb page is not in the book: {} has no {file}. Set page = \
                 \"path/to/askdb/dist\" under [preprocessor.askdb] in book.toml, or copy \
                 askdb's built dist/ folder there",
                setting.target_shown.display()
            )),
        };
    };
    let shown = setting.page_shown.unwrap_or_default();
    if let Some(file) = missing(page) {
        return Err(format!(
            "[preprocessor.askdb] page = {shown:?} is not askdb's built page ({} has no \
             {file}): build it (trunk build --release) and point to its dist/ folder",
            page.display()
        ));
    }
    let page = page
        .canonicalize()
        .map_err(|e| format!("page = {shown:?}: {e}"))?;
    match std::fs::read_link(&setting.target) {
        Ok(linked) if linked == page => return Ok(()),
        // A link this preprocessor made to another place: made again below.
        Ok(_) => std::fs::remove_file(&setting.target).map_err(|e| {
            format!(
                "cannot replace the link {}: {e}",
                setting.target_shown.display()
            )
        })?,
        // A copy made by an earlier build: kept (copying again would make `mdbook serve`
        // build again, forever). Delete it to take a newer page.
        Err(_) if setting.target.join(COPY_MARK).is_file() => return Ok(()),
        Err(_) if setting.target.exists() => {
            return Err(format!(
                "{} is a folder of its own while page = {shown:?} is set: remove it (the \
                 build links it to the page), or remove the page setting to use that folder",
                setting.target_shown.display()
            ))
        }
        Err(_) => {}
    }
    if let Some(parent) = setting.target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    link(&page, &setting.target).map_err(|e| {
        format!(
            "cannot put the askdb page at {}: {e}",
            setting.target_shown.display()
        )
    })
}

/// The first needed file `folder` lacks.
fn missing(folder: &Path) -> Option<&'static str> {
    NEEDED.into_iter().find(|file| !folder.join(file).is_file())
}

#[cfg(unix)]
fn link(page: &Path, target: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(page, target)
}

/// Where a link cannot be made without privileges, a copy.
#[cfg(not(unix))]
fn link(page: &Path, target: &Path) -> std::io::Result<()> {
    copy_folder(page, target)?;
    std::fs::write(target.join(COPY_MARK), "")
}

#[cfg(not(unix))]
fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_folder(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
