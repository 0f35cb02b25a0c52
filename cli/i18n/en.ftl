## sobre: messages of the command line in English. Keys are the same in es.ftl (a test
## checks it). Help texts are not here: their English is the `///` docs.

## Errors (cli/error.rs)
error-line = error: { $message }
hint-line = hint: { $hint }
error-bug = this is a bug in sobre; please report it with the command you ran
error-node-failed = the node failed; its log may say more (please report it if it is a bug)
node-not-running = the node is not running in { $home }
hint-start-node = start it with `sobre node run`
node-io = cannot talk to the node: { $error }
hint-node-status = check the node with `sobre node status`
node-protocol = unexpected answer from the node: { $error }
hint-versions = the node and this `sobre` may be different versions

## init, id, block, peers
init-cannot-create-home = cannot create the home { $home }: { $error }
init-created = created a new player key in { $home }; start your node with `sobre node run`
init-name-not-taken = the running node did not take the new name: { $error }
id-player = player id: { $id }
id-name = name:      { $name }
id-node-not-running = node:      not running (start it with `sobre node run`)
id-node-no-addresses = node:      running, no addresses yet
id-node-running = node:      running; others can connect to:
id-invite = invite:    `sobre invite` prints one line that holds all of this
block-nobody = nobody is blocked
block-blocked = blocked { $player }
peers-connected-to = connected to { $peer }
peers-none = no connected peers
peers-known = known (remembered) peers:

## contacts, coin, leave, chat, accept, decline, challenge, export, perft, FEN
contacts-hint-player-id = a player id looks like 12D3KooW… (ask the player to run `sobre id`), or give their invite (`sobre invite`)
contacts-bad-alias = { $alias } cannot be an alias
contacts-hint-alias = use letters, digits, `-`, `_` or `.` (at most 64), e.g. `ana` or `club.arbiter`
contacts-none = no contacts (add one with `sobre contacts add ALIAS PLAYER_ID`)
contacts-hint-damaged = fix or delete the file (it maps aliases to player ids)
file-damaged = { $path } is damaged: { $error }
cannot-read = cannot read { $path }: { $error }
cannot-write = cannot write { $path }: { $error }
wrote-file = wrote { $path }
colour-white = white
colour-black = black
coin-from = , from { $fen }
coin-settled = settled the coin of { $game } by default: you play { $colour }{ $start }.
leave-taken = leave from { $from } until { $until } in { $games } game(s)
chat-sent = sent to { $game }
accept-accepted = accepted { $game }
challenge-bad-time-control = bad time control: { $error }
challenge-hint-time-control = e.g. --per-move 3d, --time 10/50d, --classical 40/2h+1h, --increment 1d
challenge-not-correspondence = { $text } is not a correspondence time control (under a day)
challenge-hint-classical = for a game over the board use --classical
perft-too-deep = depth { $depth } is too deep: perft grows ~30x per ply (use at most 12)
fen-malformed = malformed FEN { $fen }: { $error }
fen-hint = quote the whole FEN, e.g. "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
decline-declined = declined { $game }
