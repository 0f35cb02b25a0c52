//! The board page's files, embedded in the binary (a build needs no network, a run no
//! download): the page itself (`node/board/`) and the vendored cm-chessboard
//! (`node/board/vendor/`, its version and license beside it). The page's words are not
//! files here: they come from sobre's one catalogue (`/board/words`, [`super::words`]).

/// One file the board serves.
#[derive(Debug)]
pub struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    pub content_type: &'static str,
    pub bytes: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $file:literal, $type:literal) => {
        Asset {
            path: $path,
            content_type: $type,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/board/", $file)),
        }
    };
}

/// Every file served, by path.
pub static ASSETS: &[Asset] = &[
    asset!("/", "index.html", "text/html; charset=utf-8"),
    asset!("/app.js", "app.js", "text/javascript; charset=utf-8"),
    asset!("/game.js", "game.js", "text/javascript; charset=utf-8"),
    asset!("/words.js", "words.js", "text/javascript; charset=utf-8"),
    asset!("/style.css", "style.css", "text/css; charset=utf-8"),
    asset!(
        "/cm-chessboard/src/Chessboard.js",
        "vendor/cm-chessboard-8.15.1/src/Chessboard.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/extensions/markers/Markers.js",
        "vendor/cm-chessboard-8.15.1/src/extensions/markers/Markers.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js",
        "vendor/cm-chessboard-8.15.1/src/extensions/promotion-dialog/PromotionDialog.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/lib/Svg.js",
        "vendor/cm-chessboard-8.15.1/src/lib/Svg.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/lib/Utils.js",
        "vendor/cm-chessboard-8.15.1/src/lib/Utils.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/model/ChessboardState.js",
        "vendor/cm-chessboard-8.15.1/src/model/ChessboardState.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/model/Extension.js",
        "vendor/cm-chessboard-8.15.1/src/model/Extension.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/model/Position.js",
        "vendor/cm-chessboard-8.15.1/src/model/Position.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/view/ChessboardView.js",
        "vendor/cm-chessboard-8.15.1/src/view/ChessboardView.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/view/PositionAnimationsQueue.js",
        "vendor/cm-chessboard-8.15.1/src/view/PositionAnimationsQueue.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/src/view/VisualMoveInput.js",
        "vendor/cm-chessboard-8.15.1/src/view/VisualMoveInput.js",
        "text/javascript; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/assets/chessboard.css",
        "vendor/cm-chessboard-8.15.1/assets/chessboard.css",
        "text/css; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/assets/extensions/markers/markers.css",
        "vendor/cm-chessboard-8.15.1/assets/extensions/markers/markers.css",
        "text/css; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/assets/extensions/promotion-dialog/promotion-dialog.css",
        "vendor/cm-chessboard-8.15.1/assets/extensions/promotion-dialog/promotion-dialog.css",
        "text/css; charset=utf-8"
    ),
    asset!(
        "/cm-chessboard/assets/pieces/standard.svg",
        "vendor/cm-chessboard-8.15.1/assets/pieces/standard.svg",
        "image/svg+xml"
    ),
    asset!(
        "/cm-chessboard/assets/extensions/markers/markers.svg",
        "vendor/cm-chessboard-8.15.1/assets/extensions/markers/markers.svg",
        "image/svg+xml"
    ),
];

/// The file served at `path`.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file the page names (stylesheets, preloaded modules, its script) is served.
    #[test]
    fn every_file_the_page_names_is_served() {
        let page = std::str::from_utf8(find("/").unwrap().bytes).unwrap();
        let named: Vec<&str> = page
            .split([' ', '>'])
            .filter_map(|attr| {
                attr.strip_prefix("href=\"")
                    .or_else(|| attr.strip_prefix("src=\""))
            })
            .map(|v| v.trim_end_matches('"'))
            .collect();
        assert!(named.len() > 10, "{named:?}");
        for path in named {
            assert!(find(path).is_some(), "the page names {path}, not served");
        }
    }

    /// Every module the page imports is served: a missing one breaks the page silently.
    #[test]
    fn every_import_of_a_served_module_is_served() {
        for asset in ASSETS
            .iter()
            .filter(|a| a.content_type.starts_with("text/javascript"))
        {
            let text = std::str::from_utf8(asset.bytes).unwrap();
            for line in text.lines().filter(|l| l.starts_with("import ")) {
                let Some(spec) = line.split('"').nth(1) else {
                    continue;
                };
                // An absolute path from the root; a relative one from the module's directory.
                let base = if spec.starts_with('/') {
                    "/"
                } else {
                    &asset.path[..=asset.path.rfind('/').unwrap()]
                };
                let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
                for part in spec.split('/') {
                    match part {
                        "" | "." => {}
                        ".." => {
                            parts.pop();
                        }
                        p => parts.push(p),
                    }
                }
                let path = format!("/{}", parts.join("/"));
                assert!(
                    find(&path).is_some(),
                    "{} imports {path}, not served",
                    asset.path
                );
            }
        }
    }
}
