// The board page: the games list, challenges and leagues; one game at a time (game.js).
// Every request is a control request of the node's API (POST /api), the same typed
// requests the `sobre` command sends; events arrive as server-sent events (/events).

import {load, t, translate, lang} from "./words.js"
import {GameView} from "./game.js"

// One control request; resolves to its result or throws the node's error.
export async function ask(request) {
    // In the page's language: the node words a refusal by its code, as the CLI does.
    const response = await fetch(`/api?lang=${lang}`, {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({v: 1, ...request}),
    })
    const line = await response.json()
    if (!line.ok) {
        throw new Error(line.error.message + (line.error.hint ? ` (${line.error.hint})` : ""))
    }
    return line.result
}

export function showError(e) {
    document.getElementById("error").textContent = e ? String(e.message || e) : ""
}

// The player as the node reads them (GET /board/player): config.json's language and
// notation, if set, and the aliases of `sobre contacts`.
let player = {language: null, notation: null, contacts: {}}

// How the player writes and reads moves: the choice made on this page, else config.json's
// "notation" (as the CLI), else the letters of the page's language.
export function notation() {
    return localStorage.getItem("sobre-board-notation") || player.notation || (lang === "es" ? "es" : "en")
}

// The player id an alias of `sobre contacts` names; anything else as typed, for the node
// to check.
function resolve(opponent) {
    return player.contacts[opponent] || opponent
}

// How a player is shown: their alias, as the CLI shows them, else their signed name, else
// the start of their id.
function label(id, name) {
    const alias = Object.keys(player.contacts).find((a) => player.contacts[a] === id)
    return alias || name || id.slice(0, 12)
}

async function readPlayer() {
    const line = await (await fetch("/board/player")).json()
    if (line.ok) {
        player = line.result
    }
    const list = document.getElementById("contacts")
    list.replaceChildren(...Object.entries(player.contacts).map(([alias, id]) => {
        const option = document.createElement("option")
        option.value = alias
        option.label = `${alias} (${id.slice(0, 12)}…)`
        return option
    }))
}

export function duration(ms) {
    if (ms === null || ms === undefined) {
        return ""
    }
    const sign = ms < 0 ? "-" : ""
    let s = Math.floor(Math.abs(ms) / 1000)
    const d = Math.floor(s / 86400)
    s -= d * 86400
    const h = Math.floor(s / 3600)
    s -= h * 3600
    const m = Math.floor(s / 60)
    s -= m * 60
    const pad = (n) => String(n).padStart(2, "0")
    return sign + (d > 0 ? `${d}${t("board-days-short")} ` : "") + `${pad(h)}:${pad(m)}:${pad(s)}`
}

const game = new GameView(ask)
let games = []

async function refreshGames() {
    const reply = await ask({cmd: "games"})
    games = reply.games
    const list = document.getElementById("game-list")
    list.replaceChildren(...games.map((g) => {
        const li = document.createElement("li")
        const button = document.createElement("button")
        button.dataset.game = g.game
        const who = label(g.opponent, g.opponent_name)
        button.textContent = `${who} · ${t("board-status-" + g.status)}`
        if (g.my_move) {
            button.classList.add("mine")
        }
        const flags = []
        if (g.my_move) flags.push(t("board-flag-your-move"))
        if (g.incoming_challenge) flags.push(t("board-flag-challenge"))
        if (g.claimable && g.claimable.length) flags.push(t("board-flag-claimable"))
        if (g.status === "adjourned") flags.push(t("board-flag-adjourned"))
        if (g.opponent_leave_until_ms) flags.push(t("board-flag-on-leave"))
        if (g.draw_offer) flags.push(t("board-flag-draw-offer"))
        if (g.ms_to_deadline !== undefined && g.ms_to_deadline !== null) flags.push(duration(g.ms_to_deadline))
        for (const f of flags) {
            const span = document.createElement("span")
            span.className = "flag"
            span.textContent = f
            button.append(span)
        }
        button.addEventListener("click", () => open(g.game))
        li.append(button)
        return li
    }))
}

async function refreshLeagues() {
    const reply = await ask({cmd: "league_list"})
    const box = document.getElementById("leagues")
    box.replaceChildren(...reply.leagues.map((l) => {
        const details = document.createElement("details")
        const summary = document.createElement("summary")
        summary.textContent = `${l.name} (${l.players.length})`
        details.append(summary)
        details.addEventListener("toggle", () => details.open && standings(l.league, details))
        return details
    }))
}

// A league's standings as the rules core computes them (the CLI's table), each game
// clickable.
async function standings(league, into) {
    const response = await fetch(`/board/league?league=${encodeURIComponent(league)}`)
    const line = await response.json()
    if (!line.ok) {
        showError(line.error.message)
        return
    }
    const table = document.createElement("table")
    line.result.grid.forEach((row, i) => {
        const tr = document.createElement("tr")
        for (const cell of row) {
            const td = document.createElement(i === 0 ? "th" : "td")
            td.textContent = cell
            tr.append(td)
        }
        table.append(tr)
    })
    const list = document.createElement("ul")
    for (const g of line.result.games) {
        const li = document.createElement("li")
        const b = document.createElement("button")
        b.textContent = `${t("board-round")} ${g.round}: ${g.white_name} – ${g.black_name} ${g.result || ""}`
        b.addEventListener("click", () => open(g.game))
        li.append(b)
        list.append(li)
    }
    into.querySelectorAll("table, ul").forEach((e) => e.remove())
    into.append(table, list)
}

// A leave (vacation) in every game under way: the player's clock stops meanwhile.
async function leave(request) {
    showError(null)
    try {
        const reply = await ask(request)
        const word = request.action === "start" ? "board-leave-started" : "board-leave-ended"
        document.getElementById("leave-state").textContent = t(word, {
            until: new Date(reply.until_ms).toLocaleString(),
            games: reply.games.length,
        })
        await refreshGames()
    } catch (e) {
        showError(e)
    }
}

async function open(id) {
    showError(null)
    try {
        await game.open(id)
    } catch (e) {
        showError(e)
    }
}

// The kind of the last event the node pushed, worded again when the language changes.
let lastEvent = null

// The live line: the last event's name in the page's language (`sobre watch`'s words); a
// kind this page has no word for (a newer node's) shows as the node named it.
function showLastEvent() {
    if (lastEvent === null) return
    const key = "watch-event-" + String(lastEvent).replaceAll("_", "-")
    const name = t(key)
    document.getElementById("live").textContent = t("board-live-event", {event: name === key ? lastEvent : name})
}

function follow() {
    const events = new EventSource("/events")
    events.onmessage = async (message) => {
        const event = JSON.parse(message.data)
        lastEvent = event.event
        showLastEvent()
        try {
            await refreshGames()
            if (game.id && event.game && game.id.startsWith(event.game.slice(0, game.id.length))) {
                await game.reload()
            }
        } catch (e) {
            showError(e)
        }
    }
    // Events were missed: what is shown is read again.
    events.addEventListener("lagged", () => Promise.all([refreshGames(), game.id && game.reload()]))
}

async function main() {
    await readPlayer()
    // The page's language: the choice made here, else config.json's, else the browser's.
    const saved = localStorage.getItem("sobre-board-lang")
    await load(saved || player.language || (navigator.language.startsWith("es") ? "es" : "en"))
    const select = document.getElementById("lang")
    select.value = lang
    select.addEventListener("change", async () => {
        localStorage.setItem("sobre-board-lang", select.value)
        await load(select.value)
        translate()
        showLastEvent()
        notationSelect.value = notation()
        await refreshGames()
        if (game.id) await game.reload()
    })
    const notationSelect = document.getElementById("notation")
    notationSelect.value = notation()
    notationSelect.addEventListener("change", async () => {
        localStorage.setItem("sobre-board-notation", notationSelect.value)
        if (game.id) await game.reload()
    })
    translate()
    document.getElementById("challenge-form").addEventListener("submit", async (e) => {
        e.preventDefault()
        const f = new FormData(e.target)
        try {
            const view = await ask({
                cmd: "challenge",
                opponent: resolve(f.get("opponent").trim()),
                color: f.get("color"),
                time_control: f.get("time_control").trim(),
            })
            await refreshGames()
            await open(view.game)
        } catch (err) {
            showError(err)
        }
    })
    document.getElementById("invite-form").addEventListener("submit", async (e) => {
        e.preventDefault()
        showError(null)
        const input = e.target.elements.invite
        const response = await fetch(`/board/invite?lang=${lang}`, {method: "POST", body: input.value.trim()})
        const line = await response.json()
        if (!line.ok) {
            showError(line.error.message + (line.error.hint ? ` (${line.error.hint})` : ""))
            return
        }
        input.value = ""
        // The player met is the one to challenge next.
        document.getElementById("challenge-form").elements.opponent.value = line.result.player
        document.getElementById("invite-state").textContent =
            t("board-invite-added", {name: line.result.name || line.result.player.slice(0, 12)})
    })
    document.getElementById("leave-form").addEventListener("submit", (e) => {
        e.preventDefault()
        const days = Number(new FormData(e.target).get("days")) || 7
        leave({cmd: "leave", action: "start", days})
    })
    document.getElementById("leave-end").addEventListener("click", () => leave({cmd: "leave", action: "end"}))
    follow()
    await Promise.all([refreshGames(), refreshLeagues()])
    const wanted = new URLSearchParams(location.hash.slice(1)).get("game")
    if (wanted) await open(wanted)
    document.body.dataset.ready = "true"
    // For the benchmark (examples/board_bench.rs): when the page became usable.
    performance.mark("sobre-ready")
}

main().catch(showError)
