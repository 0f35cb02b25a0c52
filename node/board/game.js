// One game on the board: cm-chessboard draws it; the node says which moves are legal
// (/board/game's hints, from the rules core), writes the record in the player's notation
// and gives the position after every ply, so this file holds no chess rules.

import {Chessboard, COLOR, INPUT_EVENT_TYPE} from "/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "/cm-chessboard/src/extensions/markers/Markers.js"
import {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE} from "/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"
import {t} from "./words.js"
import {showError, notation, duration} from "./app.js"

const $ = (id) => document.getElementById(id)

export class GameView {
    constructor(ask) {
        this.ask = ask
        this.id = null
        this.data = null
        // The ply shown (positions index); null: the latest.
        this.shown = null
        // Analysis: moves tried on the board, not sent; the line from `shown`.
        this.analysis = null
        this.board = null
        this.ticker = null
        this.wire()
    }

    wire() {
        const act = (id, request) => $(id).addEventListener("click", () => this.send(request()))
        act("draw-offer", () => ({cmd: "draw", game: this.id, action: "offer"}))
        act("draw-accept", () => ({cmd: "draw", game: this.id, action: "accept"}))
        act("draw-decline", () => ({cmd: "draw", game: this.id, action: "decline"}))
        act("resume", () => ({cmd: "resume", game: this.id}))
        act("accept", () => ({cmd: "accept", game: this.id}))
        act("decline", () => ({cmd: "decline", game: this.id}))
        $("resign").addEventListener("click", () => {
            if (confirm(t("board-confirm-resign"))) {
                this.send({cmd: "resign", game: this.id})
            }
        })
        $("first").addEventListener("click", () => this.step(() => 0))
        $("back").addEventListener("click", () => this.step((n) => n - 1))
        $("forward").addEventListener("click", () => this.step((n) => n + 1))
        $("last").addEventListener("click", () => this.step(() => null))
        $("analysis").addEventListener("change", (e) => {
            this.analysis = e.target.checked ? [] : null
            this.render()
        })
        $("move-form").addEventListener("submit", (e) => {
            e.preventDefault()
            const input = e.target.elements.text
            const text = input.value.trim()
            input.value = ""
            if (text) {
                this.send({cmd: "move", game: this.id, text, notation: notation()})
            }
        })
        $("claim-form").addEventListener("submit", (e) => {
            e.preventDefault()
            const f = new FormData(e.target)
            const intended = f.get("intended").trim() || null
            this.send({cmd: "claim", game: this.id, reason: f.get("reason"), intended, notation: notation()})
        })
        $("adjourn-form").addEventListener("submit", (e) => {
            e.preventDefault()
            const f = new FormData(e.target)
            const at = f.get("resume_at")
            this.send({
                cmd: "adjourn",
                game: this.id,
                seal: f.get("seal").trim(),
                resume_at_ms: at ? new Date(at).getTime() : null,
                notation: notation(),
            })
        })
        $("conditional-form").addEventListener("submit", (e) => {
            e.preventDefault()
            const input = e.target.elements.line
            const line = input.value.trim()
            input.value = ""
            if (line) {
                this.send({cmd: "conditional", game: this.id, action: "add", line, notation: notation()})
            }
        })
        act("conditional-clear", () => ({cmd: "conditional", game: this.id, action: "clear"}))
        $("chat-form").addEventListener("submit", (e) => {
            e.preventDefault()
            const input = e.target.elements.text
            const text = input.value.trim()
            input.value = ""
            if (text) {
                this.send({cmd: "chat", game: this.id, text})
            }
        })
        document.addEventListener("keydown", (e) => {
            if (!this.id || e.target.closest("input, select, textarea")) return
            if (e.key === "ArrowLeft") this.step((n) => n - 1)
            if (e.key === "ArrowRight") this.step((n) => n + 1)
        })
    }

    async send(request) {
        showError(null)
        try {
            await this.ask(request)
            await this.reload()
        } catch (e) {
            showError(e)
        }
    }

    async open(id) {
        this.id = id
        this.shown = null
        this.analysis = null
        $("analysis").checked = false
        location.hash = `game=${id}`
        await this.reload()
    }

    async reload() {
        const response = await fetch(`/board/game?game=${encodeURIComponent(this.id)}&notation=${notation()}`)
        const line = await response.json()
        if (!line.ok) {
            throw new Error(line.error.message)
        }
        this.id = line.result.view.game
        this.data = line.result
        if (this.shown !== null && this.shown >= this.data.positions.length) {
            this.shown = null
        }
        this.render()
        await this.conditionals()
    }

    // The conditional moves stay on this node, the player's own: asked for apart, after the
    // board is drawn.
    async conditionals() {
        const {view} = this.data
        const lines = view.status === "active" && view.my_color
            ? (await this.ask({cmd: "conditional", game: this.id, action: "list"})).lines
            : []
        $("conditionals").replaceChildren(...lines.map((line) => {
            const li = document.createElement("li")
            li.textContent = line.join(" ")
            return li
        }))
    }

    step(to) {
        if (!this.data) return
        const last = this.data.positions.length - 1
        const now = this.shown === null ? last : this.shown
        let next = to(now)
        if (next !== null) {
            next = Math.max(0, Math.min(last, next))
            if (next === last) next = null
        }
        this.shown = next
        this.analysis = this.analysis && []
        this.render()
    }

    mine() {
        return this.data.view.my_color
    }

    // Whether a drag may start: the latest position, the player's move, or analysis.
    live() {
        return this.shown === null && this.analysis === null && this.data.view.my_move
    }

    render() {
        const {view, positions, record} = this.data
        $("game").hidden = false
        $("game-title").textContent = t("board-game-title", {game: view.game.slice(0, 8)})
        const ply = this.shown === null ? positions.length - 1 : this.shown
        const fen = this.analysis && this.analysis.length ? this.analysis[this.analysis.length - 1] : positions[ply]
        const orientation = this.mine() === "black" ? COLOR.black : COLOR.white
        if (!this.board) {
            this.board = new Chessboard($("board"), {
                position: fen,
                orientation,
                assetsUrl: "/cm-chessboard/assets/",
                style: {animationDuration: 150},
                extensions: [{class: Markers}, {class: PromotionDialog}],
            })
        } else {
            this.board.setPosition(fen, true)
            if (this.board.getOrientation() !== orientation) {
                this.board.setOrientation(orientation)
            }
        }
        $("board").setAttribute("aria-label", t("board-board-label"))
        $("board").dataset.fen = fen
        $("board").dataset.plies = String(positions.length - 1)
        // For the benchmark (examples/board_bench.rs): when a new position was drawn.
        window.drawnAt = Date.now()
        this.board.removeMarkers()
        const lastMove = this.shown === null ? view.last_move : view.moves[ply - 1]
        if (lastMove && !(this.analysis && this.analysis.length)) {
            this.board.addMarker(MARKER_TYPE.square, lastMove.slice(0, 2))
            this.board.addMarker(MARKER_TYPE.square, lastMove.slice(2, 4))
        }
        this.input()
        this.describe(fen)
        this.record(record, ply)
        this.players()
        this.status()
    }

    input() {
        this.board.disableMoveInput()
        const colour = this.mine() === "black" ? COLOR.black : COLOR.white
        if (this.analysis !== null) {
            // Analysis: any piece of either side may be moved; nothing is sent.
            this.board.enableMoveInput((event) => {
                if (event.type === INPUT_EVENT_TYPE.validateMoveInput) {
                    queueMicrotask(() => this.analysis.push(this.board.getPosition()))
                }
                return true
            })
            return
        }
        if (!this.live()) return
        const hints = this.data.hints
        this.board.enableMoveInput((event) => {
            switch (event.type) {
            case INPUT_EVENT_TYPE.moveInputStarted: {
                const moves = hints.filter((h) => h.from === event.squareFrom)
                for (const h of moves) this.board.addMarker(MARKER_TYPE.dot, h.to)
                return moves.length > 0
            }
            case INPUT_EVENT_TYPE.validateMoveInput: {
                this.board.removeMarkers(MARKER_TYPE.dot)
                const moves = hints.filter((h) => h.from === event.squareFrom && h.to === event.squareTo)
                if (moves.length === 0) return false
                if (moves[0].promotion) {
                    this.board.showPromotionDialog(event.squareTo, colour, (result) => {
                        if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
                            const piece = result.piece.charAt(1)
                            const move = moves.find((h) => h.promotion === piece)
                            this.send({cmd: "move", game: this.id, text: move.uci})
                        } else {
                            this.render()
                        }
                    })
                    return true
                }
                this.send({cmd: "move", game: this.id, text: moves[0].uci})
                return true
            }
            case INPUT_EVENT_TYPE.moveInputCanceled:
                this.board.removeMarkers(MARKER_TYPE.dot)
                return true
            default:
                return true
            }
        }, colour)
    }

    // The position in words, for a screen reader: each side's pieces by square.
    describe(fen) {
        const names = {k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn"}
        const sides = {w: [], b: []}
        fen.split(" ")[0].split("/").forEach((row, r) => {
            let file = 0
            for (const c of row) {
                if (/\d/.test(c)) {
                    file += Number(c)
                    continue
                }
                const side = c === c.toUpperCase() ? "w" : "b"
                const square = "abcdefgh"[file] + (8 - r)
                sides[side].push(`${t("board-piece-" + names[c.toLowerCase()])} ${square}`)
                file += 1
            }
        })
        $("pieces").textContent = `${t("board-white")}: ${sides.w.join(", ")}. ${t("board-black")}: ${sides.b.join(", ")}.`
    }

    record(record, ply) {
        const items = record.map((san, i) => {
            const li = document.createElement("li")
            const b = document.createElement("button")
            b.textContent = (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + san
            b.addEventListener("click", () => this.step(() => i + 1))
            li.append(b)
            if (i + 1 === ply) li.classList.add("current")
            return li
        })
        $("moves").replaceChildren(...items)
    }

    players() {
        const {view} = this.data
        const name = (id) => (id && (view.names[id] || id.slice(0, 12))) || "?"
        const bottom = this.mine() === "black" ? "black" : "white"
        const top = bottom === "white" ? "black" : "white"
        const clocks = view.clocks || {}
        const read = Date.now()
        const paint = () => {
            for (const [where, colour] of [["top", top], ["bottom", bottom]]) {
                const box = document.querySelector(`.player.${where}`)
                box.querySelector(".name").textContent = `${t("board-" + colour)}: ${name(view[colour])}`
                const clock = box.querySelector(".clock")
                let ms = clocks[`${colour}_ms`]
                const running = clocks.running === colour && view.status === "active"
                if (ms !== null && ms !== undefined && running) ms -= Date.now() - read
                clock.textContent = duration(ms)
                clock.classList.toggle("running", running)
            }
        }
        paint()
        clearInterval(this.ticker)
        this.ticker = setInterval(paint, 1000)
    }

    status() {
        const {view} = this.data
        const name = (id) => view.names[id] || id.slice(0, 12)
        const words = [t("board-status-" + view.status)]
        if (view.result) words.push(view.result)
        if (view.termination) words.push(t("board-termination", {reason: t("board-end-" + view.termination)}))
        if (view.my_move && view.status === "active") words.push(t("board-flag-your-move"))
        if (view.draw_offer) words.push(t("board-draw-offered-by", {colour: t("board-" + view.draw_offer)}))
        $("state").textContent = words.join(" · ")
        let terms = `${t("board-time-control")}: ${view.time_control}`
        if (view.terms) {
            // Terms both players agreed to that differ from the default ones.
            terms += " · " + t("board-terms", {
                edition: view.terms.edition,
                notice: duration(view.terms.notice_ms),
                lateness: duration(view.terms.lateness_ms),
            })
            if (view.terms.arbiter) terms += " · " + t("board-arbiter", {arbiter: name(view.terms.arbiter)})
        }
        $("terms").textContent = terms
        const active = view.status === "active"
        const offerFromThem = view.draw_offer && view.draw_offer !== view.my_color
        $("draw-offer").hidden = !active || !!view.draw_offer
        $("draw-accept").hidden = !active || !offerFromThem
        $("draw-decline").hidden = !active || !offerFromThem
        $("claim-form").hidden = !active
        $("adjourn-form").hidden = !active || !view.my_move
        $("resign").hidden = !active && view.status !== "adjourned"
        $("resume").hidden = view.status !== "adjourned"
        // A challenge to this player: the opponent sent it.
        const incoming = view.status === "pending" && view.opponent === view.challenger
        $("accept").hidden = !incoming
        $("decline").hidden = !incoming
        $("move-form").hidden = !active || !view.my_move
        $("claims").replaceChildren(...view.claims.map((c) => {
            const li = document.createElement("li")
            const verdict = c.correct === null ? t("board-claim-pending") : c.correct ? t("board-claim-upheld") : t("board-claim-rejected")
            li.textContent = `${t("board-" + c.by)} ${t("board-claim-" + c.reason)}: ${verdict} — ${c.judgement}`
            return li
        }))
        const env = view.envelope
        $("envelope").textContent = env
            ? t("board-envelope", {
                move: env.move_number,
                at: env.resume_at_ms ? new Date(env.resume_at_ms).toLocaleString() : "—",
                opened: env.opened || t("board-envelope-closed"),
            })
            : ""
        $("conditional-form").hidden = !active
        $("chat").replaceChildren(...view.chat.map((line) => {
            const li = document.createElement("li")
            li.textContent = `${view.names[line.by] || line.by.slice(0, 12)}: ${line.text}`
            return li
        }))
    }
}
