// The page's words, from sobre's one catalogue (words/i18n/en.ftl, es.ftl: the `board-`
// messages), which the node hands over as templates (GET /board/words): each message a
// list of text and {arg: name} parts that t() joins with the arguments. A missing word
// shows its id, so that a gap is seen, not hidden.

let words = {}
export let lang = "en"

export async function load(wanted) {
    const response = await fetch(`/board/words?lang=${wanted === "es" ? "es" : "en"}`)
    const line = await response.json()
    if (!line.ok) {
        throw new Error(line.error.message)
    }
    words = line.result.words
    lang = line.result.lang
    document.documentElement.lang = lang
}

export function t(id, args = {}) {
    const parts = words[id]
    if (parts === undefined) {
        return id
    }
    return parts.map((p) => typeof p === "string" ? p : String(args[p.arg] ?? "")).join("")
}

// Every element with data-t gets its word (and data-t-label its aria-label).
export function translate(root = document) {
    for (const el of root.querySelectorAll("[data-t]")) {
        el.textContent = t(el.dataset.t)
    }
    for (const el of root.querySelectorAll("[data-t-label]")) {
        el.setAttribute("aria-label", t(el.dataset.tLabel))
    }
    for (const el of root.querySelectorAll("[data-t-placeholder]")) {
        el.setAttribute("placeholder", t(el.dataset.tPlaceholder))
    }
}
