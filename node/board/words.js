// The page's words, from the Fluent catalogue of its language (i18n/en.ftl, i18n/es.ftl).
// Only the simple messages the board uses: `id = text` with `{ $name }` placeholders; a
// missing word shows its id, so that a gap is seen, not hidden.

let words = new Map()
export let lang = "en"

export async function load(wanted) {
    lang = wanted === "es" ? "es" : "en"
    const response = await fetch(`/i18n/${lang}.ftl`)
    words = parse(await response.text())
    document.documentElement.lang = lang
}

function parse(text) {
    const out = new Map()
    let last = null
    for (const line of text.split("\n")) {
        if (line.startsWith("#") || line.trim() === "") {
            last = null
            continue
        }
        const m = /^([a-z0-9-]+)\s*=\s*(.*)$/.exec(line)
        if (m) {
            last = m[1]
            out.set(last, m[2])
        } else if (last && /^\s/.test(line)) {
            out.set(last, (out.get(last) + " " + line.trim()).trim())
        }
    }
    return out
}

export function t(id, args = {}) {
    const text = words.get(id)
    if (text === undefined) {
        return id
    }
    return text.replace(/\{\s*\$([a-z_]+)\s*\}/g, (_, name) => String(args[name] ?? ""))
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
