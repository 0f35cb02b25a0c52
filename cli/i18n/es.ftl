## sobre: mensajes de la línea de órdenes en español. Las claves son las de en.ftl (un test
## lo comprueba). Las ayudas están en help-es.ftl.

## Errores (cli/error.rs)
error-line = error: { $message }
hint-line = sugerencia: { $hint }
error-bug = esto es un fallo de sobre; por favor, avise con la orden que ejecutó
error-node-failed = el nodo ha fallado; su registro puede decir más (avise si es un fallo)
node-not-running = el nodo no está en marcha en { $home }
hint-start-node = arránquelo con `sobre node run`
node-io = no se puede hablar con el nodo: { $error }
hint-node-status = compruebe el nodo con `sobre node status`
node-protocol = respuesta inesperada del nodo: { $error }
hint-versions = puede que el nodo y este `sobre` sean de versiones distintas

## init, id, block, peers
init-cannot-create-home = no se puede crear el directorio de trabajo { $home }: { $error }
init-created = creada una nueva clave de jugador en { $home }; arranque su nodo con `sobre node run`
init-name-not-taken = el nodo en marcha no aceptó el nuevo nombre: { $error }
id-player = id de jugador: { $id }
id-name = nombre:        { $name }
id-node-not-running = nodo:          parado (arránquelo con `sobre node run`)
id-node-no-addresses = nodo:          en marcha, aún sin direcciones
id-node-running = nodo:          en marcha; otros pueden conectar con:
id-invite = invitación:    `sobre invite` imprime una línea que lo contiene todo
block-nobody = no hay nadie bloqueado
block-blocked = bloqueado { $player }
peers-connected-to = conectado con { $peer }
peers-none = no hay pares conectados
peers-known = pares conocidos (recordados):

## contacts, coin, leave, chat, accept, decline, challenge, export, perft, FEN
contacts-hint-player-id = un id de jugador es como 12D3KooW… (pida al jugador que ejecute `sobre id`), o dé su invitación (`sobre invite`)
contacts-bad-alias = { $alias } no puede ser un alias
contacts-hint-alias = use letras, cifras, `-`, `_` o `.` (como mucho 64), p. ej. `ana` o `club.arbitro`
contacts-none = no hay contactos (añada uno con `sobre contacts add ALIAS ID_DE_JUGADOR`)
contacts-hint-damaged = arregle o borre el fichero (asocia alias con ids de jugador)
file-damaged = { $path } está dañado: { $error }
cannot-read = no se puede leer { $path }: { $error }
cannot-write = no se puede escribir { $path }: { $error }
wrote-file = escrito { $path }
colour-white = blancas
colour-black = negras
coin-from = , desde { $fen }
coin-settled = resuelta por omisión la moneda de { $game }: juega con { $colour }{ $start }.
leave-taken = permiso desde { $from } hasta { $until } en { $games } partida(s)
chat-sent = enviado a { $game }
accept-accepted = aceptada { $game }
challenge-bad-time-control = ritmo de juego incorrecto: { $error }
challenge-hint-time-control = p. ej. --per-move 3d, --time 10/50d, --classical 40/2h+1h, --increment 1d
challenge-not-correspondence = { $text } no es un ritmo de correspondencia (menos de un día)
challenge-hint-classical = para una partida sobre el tablero use --classical
perft-too-deep = la profundidad { $depth } es excesiva: perft crece unas 30 veces por media jugada (use 12 como mucho)
fen-malformed = FEN mal formado { $fen }: { $error }
fen-hint = ponga todo el FEN entre comillas, p. ej. "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
decline-declined = rechazada { $game }
