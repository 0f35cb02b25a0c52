//! The board's routes. Every request passes [`guard`] ([`super::access`]) first.
//!
//! - `POST /api?lang=es`: one control request, as a request line of the control socket
//!   (`{"v":1,"cmd":"move",…}`), answered with its response line (a refusal with a code
//!   worded in `lang`, as the CLI words it);
//! - `GET /board/game?game=ID&notation=es`: a game as the page draws it ([`BoardGame`]);
//! - `GET /board/league?league=ID`: a league's table ([`BoardLeague`]);
//! - `GET /board/words?lang=es`: the page's words in a language ([`BoardWords`]);
//! - `GET /board/player`: the player's settings and contacts ([`BoardPlayer`]);
//! - `POST /board/invite?lang=es`: an invite pasted (its text): its player's addresses remembered
//!   and dialled, as `sobre connect` does ([`InvitedPlayer`]);
//! - `GET /events`: the node's events as server-sent events (`sobre watch`'s stream);
//! - anything else: an embedded file ([`super::assets`]).

use super::access::{Access, Admitted, Seen};
use super::assets;
use super::hints::{self, BoardGame};
use super::league::{self, BoardLeague};
use super::player::{self, BoardPlayer};
use super::words::{self, BoardWords};
use crate::api::RefusalCode;
use crate::api::request::{self, Request};
use crate::api::watch::WatchEvent;
use crate::api::{ApiError, ApiRequest, GameView, MAX_LINE_BYTES, ResponseLine};
use crate::control::{self, ControlRequest};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Query, State as With};
use axum::http::{HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::Stream;
use serde::Deserialize;
use sobre_core::notation::Notation;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, watch};

/// What every handler shares.
#[derive(Clone)]
pub struct State {
    pub access: Arc<Access>,
    pub requests: mpsc::Sender<ControlRequest>,
    pub events: broadcast::Sender<WatchEvent>,
    /// The player's home (settings, contacts).
    pub home: Arc<Path>,
    /// Set when the node stops: event streams end.
    pub stopping: watch::Receiver<bool>,
}

/// Serves the board on `listener` until `state.stopping` is set.
pub async fn serve(listener: tokio::net::TcpListener, state: State) {
    let mut stopping = state.stopping.clone();
    let app = axum::Router::new()
        .route("/api", post(api))
        .route("/board/game", get(game))
        .route("/board/league", get(league_table))
        .route("/board/invite", post(invite))
        .route("/board/words", get(page_words))
        .route("/board/player", get(page_player))
        .route("/events", get(events))
        .fallback(asset)
        .layer(DefaultBodyLimit::max(MAX_LINE_BYTES))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state);
    let served = axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move { control::stopped(&mut stopping).await });
    if let Err(e) = served.await {
        tracing::warn!("the board stopped: {e}");
    }
}

/// The access checks, and the headers that keep the page to itself: no framing by other
/// sites, no scripts but its own, no referrer (the URL once held a token), no caching.
async fn guard(With(state): With<State>, req: axum::extract::Request, next: Next) -> Response {
    let admitted = {
        let headers = req.headers();
        let text = |name| {
            headers
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        let seen = Seen {
            peer: req
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
            host: text(header::HOST),
            origin: text(header::ORIGIN),
            safe: matches!(*req.method(), Method::GET | Method::HEAD),
            cookies: text(header::COOKIE),
            token: req
                .uri()
                .query()
                .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token="))),
        };
        state.access.check(&seen)
    };
    let mut response = match admitted {
        Ok(Admitted::Session) => next.run(req).await,
        // The token is spent: the cookie replaces it, and the URL loses it.
        Ok(Admitted::Token) => (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, req.uri().path().to_owned()),
                (header::SET_COOKIE, state.access.cookie()),
            ],
        )
            .into_response(),
        Err(refused) => (StatusCode::FORBIDDEN, refused.to_string()).into_response(),
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// One control request, exactly as the control socket takes it.
async fn api(
    With(state): With<State>,
    Query(q): Query<WordsQuery>,
    body: Bytes,
) -> Json<ResponseLine> {
    let answer = match control::parse_request(&body) {
        // The page follows events on `/events`; a watch would hold the request open.
        Ok(ApiRequest::Watch(_)) => Err(ApiError::refused(RefusalCode::WatchOnBoard)),
        Ok(request) => control::ask(&state.requests, request).await,
        Err(e) => Err(e),
    };
    Json(ResponseLine::from_result(
        answer.map_err(|e| in_language(e, &q)),
    ))
}

#[derive(Deserialize)]
struct GameQuery {
    game: String,
    #[serde(default)]
    notation: Option<Notation>,
}

/// A game as the page draws it: the node's view and what the rules core adds.
async fn game(With(state): With<State>, Query(q): Query<GameQuery>) -> Json<ResponseLine> {
    let answer = async {
        let value = control::ask(&state.requests, request::Show { game: q.game }.into()).await?;
        let view: GameView = serde_json::from_value(value).map_err(internal)?;
        let game: BoardGame =
            hints::board_game(view, q.notation.unwrap_or_default()).map_err(internal)?;
        serde_json::to_value(game).map_err(internal)
    }
    .await;
    Json(ResponseLine::from_result(answer))
}

#[derive(Deserialize)]
struct LeagueQuery {
    league: String,
}

/// A league's table, computed from the archive the node holds.
async fn league_table(
    With(state): With<State>,
    Query(q): Query<LeagueQuery>,
) -> Json<ResponseLine> {
    let answer = async {
        let request = request::LeagueExport { league: q.league };
        let value = control::ask(&state.requests, request.into()).await?;
        let export: <request::LeagueExport as Request>::Reply =
            serde_json::from_value(value).map_err(internal)?;
        let table: BoardLeague =
            league::board_league(&export.archive, crate::time::now_ms()).map_err(internal)?;
        serde_json::to_value(table).map_err(internal)
    }
    .await;
    Json(ResponseLine::from_result(answer))
}

#[derive(Deserialize)]
struct WordsQuery {
    /// `en`, `es` or a locale; anything else is English.
    #[serde(default)]
    lang: String,
}

/// The page's words in a language, from the catalogue the command line reads.
async fn page_words(Query(q): Query<WordsQuery>) -> Json<ResponseLine> {
    let lang = sobre_words::Language::from_setting(&q.lang).unwrap_or_default();
    let answer = words::board_words(lang)
        .map_err(internal)
        .and_then(|w: BoardWords| serde_json::to_value(w).map_err(internal));
    Json(ResponseLine::from_result(answer))
}

/// The player's language, notation and contacts, as the command line reads them.
async fn page_player(With(state): With<State>) -> Json<ResponseLine> {
    let home = Arc::clone(&state.home);
    let answer = tokio::task::spawn_blocking(move || player::board_player(&home))
        .await
        .map_err(internal)
        .and_then(|p: BoardPlayer| serde_json::to_value(p).map_err(internal));
    Json(ResponseLine::from_result(answer))
}

/// The player an invite names, once their addresses are remembered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct InvitedPlayer {
    pub player: String,
    pub name: Option<String>,
}

/// An invite pasted on the page: verified, refused if it is the player's own, and its
/// addresses (the player's, their mailboxes' and bootstrap nodes') remembered and dialled.
/// (The CLI's `connect` also saves an alias; contacts are the CLI's, not the node's.)
async fn invite(
    With(state): With<State>,
    Query(q): Query<WordsQuery>,
    body: Bytes,
) -> Json<ResponseLine> {
    let answer = async {
        let bad = |reason: String| ApiError::refused(RefusalCode::BadInvite { reason });
        let text = std::str::from_utf8(&body).map_err(|e| bad(e.to_string()))?;
        let invite = crate::invite::Invite::parse(text).map_err(|e| bad(e.to_string()))?;
        let me = control::ask(&state.requests, request::Id {}.into()).await?;
        let me: <request::Id as Request>::Reply = serde_json::from_value(me).map_err(internal)?;
        if me.player_id == invite.player.to_string() {
            return Err(ApiError::refused(RefusalCode::OwnInvite));
        }
        let addrs = invite
            .dialable()
            .iter()
            .chain(&invite.mailboxes)
            .chain(&invite.bootstrap)
            .map(ToString::to_string)
            .collect();
        control::ask(&state.requests, request::Remember { addrs }.into()).await?;
        serde_json::to_value(InvitedPlayer {
            player: invite.player.to_string(),
            name: invite.name,
        })
        .map_err(internal)
    }
    .await;
    Json(ResponseLine::from_result(
        answer.map_err(|e| in_language(e, &q)),
    ))
}

/// A refusal in the page's language (`?lang=es`): worded from its code as the CLI words
/// it; the code stays for a script, and a refusal without one keeps the node's English.
fn in_language(mut e: ApiError, q: &WordsQuery) -> ApiError {
    let lang = sobre_words::Language::from_setting(&q.lang).unwrap_or_default();
    if let Some((message, hint)) = e
        .code
        .as_deref()
        .and_then(|c| c.words(sobre_words::words(lang)))
    {
        e.message = message;
        e.hint = hint;
    }
    e
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// The node's events as they are published (each a `message` whose data is the event's
/// JSON); `lagged` says how many this page missed (it reloads what it shows).
async fn events(With(state): With<State>) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let start = (state.events.subscribe(), state.stopping.clone());
    let stream = futures::stream::unfold(start, |(mut events, mut stopping)| async move {
        let event = tokio::select! {
            biased;
            () = control::stopped(&mut stopping) => return None,
            event = events.recv() => match event {
                Ok(event) => match serde_json::to_value(&event) {
                    Ok(value) => Event::default().data(value.to_string()),
                    // Plain fields always serialize; were one not to, the page is told it
                    // missed an event, and reloads what it shows.
                    Err(e) => {
                        tracing::warn!("board event not sent: {e}");
                        lagged(1)
                    }
                },
                Err(broadcast::error::RecvError::Lagged(missed)) => lagged(missed),
                Err(broadcast::error::RecvError::Closed) => return None,
            },
        };
        Some((Ok(event), (events, stopping)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// The event telling a page it missed `missed` events.
fn lagged(missed: u64) -> Event {
    Event::default().event("lagged").data(missed.to_string())
}

/// An embedded file.
async fn asset(method: Method, uri: Uri) -> Response {
    if !matches!(method, Method::GET | Method::HEAD) {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    match assets::find(uri.path()) {
        Some(a) => ([(header::CONTENT_TYPE, a.content_type)], a.bytes).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
