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
cannot-open = no se puede abrir { $path }: { $error }
cannot-create = no se puede crear { $path }: { $error }
man-cannot-write = no se pueden escribir las páginas de manual en { $dir }: { $error }
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

## position, pgn, verify, watch, man, completions; las palabras de las reglas
colour-white-subject = Blancas
colour-black-subject = Negras
status-pending = pendiente
status-active = en juego
status-adjourned = aplazada
status-finished = terminada
status-cancelled = anulada
status-disputed = en disputa
term-checkmate = jaque mate
term-stalemate = rey ahogado
term-dead-position = posición muerta (material insuficiente)
term-fivefold = quíntuple repetición
term-seventy-five = regla de las 75 jugadas
term-threefold = triple repetición (reclamada)
term-fifty = regla de las cincuenta jugadas (reclamada)
term-resignation = abandono
term-agreement = tablas de mutuo acuerdo
term-time-forfeit = pérdida por tiempo
term-time-forfeit-no-mate = tiempo agotado, pero el rival no puede dar mate (6.9)
term-illegal-sealed = jugada secreta no válida (A8)
term-late = tarde a la reanudación (A10)
claim-threefold = triple repetición (9.2)
claim-fifty = la regla de las cincuenta jugadas (9.3)
claim-time = la victoria por tiempo (6.9)
claim-dead-position = una posición muerta (9.6)
claim-lateness = el retraso en la reanudación (A10)
position-to-move = Juegan las { $colour }.
position-checkmate = Jaque mate: ganan las { $winner } (FIDE 5.1a).
position-stalemate = Rey ahogado: la partida es tablas (FIDE 5.2a).
position-check = Las { $colour } están en jaque.
position-dead = Ningún bando puede dar mate: posición muerta, tablas (FIDE 9.6).
position-legal-moves = { $count } jugadas legales: { $moves }
pgn-summary = { $path }: { $games } partida(s), { $ok } bien, { $failed } mal, { $plies } jugadas reproducidas en { $secs } s
pgn-game-error = { $path }: partida { $game }, { $error } (línea { $line })
pgn-written-up-to = escrita hasta la jugada anterior
man-written = { $pages } página(s) de manual en { $dir }
completions-no-shell = no se sabe qué shell es por $SHELL
completions-hint = nómbrelo: sobre completions bash|zsh|fish|elvish|powershell
watch-node-stopped = el nodo se ha detenido
watch-lagged = ({ $count } eventos perdidos; `sobre games` muestra el estado actual)


## el veredicto de una reclamación (cli/i18n/words.rs), del veredicto tipado del núcleo de reglas
judgement-threefold = la posición se repite { $occurrences } veces (9.2)
judgement-fifty-moves = cincuenta jugadas de cada jugador sin captura ni movimiento de peón (9.3)
judgement-dead = ninguna serie de jugadas legales puede llevar al mate (9.6)
judgement-not-threefold = la posición se da { $occurrences } vez/veces, no tres (9.2)
judgement-not-fifty-moves = solo { $moves } jugada(s) sin captura ni movimiento de peón, no cincuenta (9.3)
judgement-not-dead = aún es posible dar mate (9.6)
judgement-game-over = la partida ya ha terminado
judgement-intended-move-illegal = la jugada anunciada es ilegal
judgement-not-a-draw-claim = no es una reclamación de 9.2 ni de 9.3
judgement-time-ran-out = el tiempo de las { $flagged } se había agotado (6.9)
judgement-time-not-run-out = el tiempo de las { $flagged } no se había agotado (6.9)
judgement-claimant-fell-first = la bandera de las { $claimant }, que reclaman, cayó antes (6.9; el orden de las banderas consta, 6.11)
judgement-window-closed = las { $claimant } jugaron tras la caída de la bandera sin reclamar: el plazo para reclamar se cerró (6.8)
judgement-not-adjourned = la partida no está aplazada (A10)
judgement-opponent-late = las { $late } no se presentaron dentro del límite (A10)
judgement-claimant-lost-on-time = las { $late } llegan tarde, pero el tiempo de las { $claimant } se había agotado: decide { $article } (A10c)
judgement-sealer-cannot-open = las { $sealer } no abrieron el sobre cerrado dentro del límite: la jugada secreta no puede leerse (A8, A10)
judgement-no-resumption-time = no se fijó la hora de reanudación (A10)
judgement-claimant-absent = quien reclama no ha anunciado su presencia (A10)
judgement-opponent-present = el adversario está presente (A10)
judgement-within-limit = el adversario aún no pasa del límite de retraso (A10)
judgement-opponent-arrived-first = el adversario llegó antes que quien reclama, que también llegó tarde (A10)
judgement-played-on = quien reclama siguió jugando después de que llegara el jugador retrasado (A10)

## verify
standard-input = la entrada estándar
verify-does-not-verify = { $path }: no se verifica: { $error }
verify-too-large = { $path }: mayor de lo que puede ser un archivo ({ $max } bytes)
verify-not-text = { $path }: no es un archivo de sobre (no es texto; un archivo empieza con `{ $header }`)
verify-label-verified = verificado
verify-label-game = partida
verify-label-white = blancas
verify-label-black = negras
verify-label-status = estado
verify-label-result = resultado
verify-label-moves = jugadas
verify-label-position = posición
verify-label-disputes = disputas
verify-label-claims = reclamaciones
verify-label-envelope = sobre
verify-label-coin = moneda
verify-label-ignored = ignorados
verify-not-drawn = aún sin sortear
verify-not-decided = * (sin decidir)
verify-signed-events = { $count } eventos firmados
verify-disputed-why = (un jugador firmó dos eventos distintos en un mismo lugar)
verify-plies = { $plies } medias jugadas ({ $full } jugadas completas)
verify-none = ninguno
verify-equivocation = { $author } firmó dos eventos en la posición { $seq }
verify-claim = las { $by } reclamaron { $reason } tras la media jugada { $ply }: { $verdict }, { $judgement }
verify-correct = correcta
verify-incorrect = incorrecta
verify-envelope-lost = sellada por las { $who } para la media jugada { $ply }, perdida; en su lugar se jugó la jugada (A11)
verify-envelope-opened = sellada por las { $who } para la media jugada { $ply }, abierta: { $text }
verify-envelope-closed = sellada por las { $who } para la media jugada { $ply }, aún cerrada
verify-coin-unopened = aceptada, aún sin abrir
verify-coin-defaulted = no se abrió a tiempo: resuelta por omisión del rival (F1)
verify-ignored = { $count } evento(s) sin efecto (p. ej. { $why })

## node
no-player-key = no hay clave de jugador en { $home }
hint-init = cree una con `sobre init --name NOMBRE`
overdue = vencido { $time }
config-not-json = aviso: { $home }/config.json no es JSON válido; se usan los valores por omisión
hint-multiaddr-4001 = una multiaddr es como /ip4/0.0.0.0/tcp/4001 o /ip4/1.2.3.4/udp/4001/quic-v1
hint-multiaddr-4848 = una multiaddr es como /ip4/0.0.0.0/tcp/4848 o /ip4/1.2.3.4/udp/4848/quic-v1
node-bad-multiaddr = multiaddr incorrecta { $addr } ({ $key }): { $reason }; no se ha guardado nada
node-settings-saved = ajustes guardados en { $path }
settings-hint-io = compruebe los permisos y el espacio libre del directorio de trabajo
settings-hint-malformed = arregle esa línea de node.toml, o ejecute `sobre node run --no-settings …` con --save
node-already-running = ya hay un nodo en marcha en { $home }
node-hint-already-running = deténgalo con `sobre node stop`, o use otro --home
node-running-in = el nodo está en marcha en { $home }
node-hint-stop-first = deténgalo antes con `sobre node stop`
node-rebuilding = reconstruyendo la base de datos de { $home } a partir de sus eventos firmados
node-repaired = base de datos reconstruida: { $games } partida(s) con { $events } evento(s) conservadas, { $fetch } partida(s) que se pedirán de nuevo a los pares en el próximo `sobre node run`, { $carried } registro(s) de ligas, líneas condicionales, elecciones de la moneda, perfiles y recordatorios trasladados
node-repair-lost = { $count } registro(s) no se pudieron leer y se dejaron atrás
node-repair-backup = la base de datos antigua está en { $path }
node-stopping = el nodo se está deteniendo
status-running = nodo en marcha en { $home }
status-label-player = id de jugador
status-label-uptime = en marcha
status-label-peers = pares
status-label-games = partidas
status-label-outbox = salida
status-label-mailbox = buzón
status-label-reachable = alcanzable
status-label-opponents = rivales
status-outbox = { $count } evento(s) esperando acuse
status-mailbox = sirve las partidas de otros jugadores
status-through-relay = a través del relé { $relay }
status-through-relays = a través de { $count } relés ({ $relays })
status-public = sí, directamente: los pares alcanzaron { $address }
status-public-this-node = sí, directamente: los pares alcanzaron este nodo
status-private-relayed = no directamente (detrás de NAT o de un cortafuegos); { $relayed }
status-private = no: detrás de NAT o de un cortafuegos, y sin relé. Redirija el puerto 4848 (TCP y UDP) en su router y declárelo con `sobre node run --external /ip4/IP_PUBLICA/tcp/4848 --save`, o use un relé (`--relay DIRECCIÓN --save`)
status-unknown-relayed = { $relayed }; directamente, aún no se sabe
status-unknown = aún no se sabe (los pares lo comprueban cuando hay unos cuantos conectados); los rivales que conocen su dirección o su invitación pueden alcanzarle igualmente
status-opponents = { $connected } de { $total } conectados
status-connected = conectado
status-last-seen = visto por última vez hace { $ago }
status-never-seen = este nodo nunca lo ha visto
status-clock-ahead = ; su reloj va { $secs } s por delante del suyo (vea `sobre node doctor`)
status-clock-behind = ; su reloj va { $secs } s por detrás del suyo (vea `sobre node doctor`)

## node start, install, doctor
service-hint-stop = deténgalo con `sobre node stop`
service-stopped-at-once = el nodo se detuvo enseguida ({ $status }): { $tail }
service-see = vea { $path }
service-not-answered = el nodo aún no ha respondido
service-hint-not-answered = vea { $path }; `sobre node status` dice cuándo está en marcha
service-started = nodo en marcha en segundo plano (pid { $pid }); registro: { $log }; deténgalo con `sobre node stop`
service-next-launchd = cárguelo con `launchctl load -w ~/Library/LaunchAgents/org.sobre.node.plist`
service-next-systemd = arránquelo ahora y en cada inicio de sesión con `systemctl --user daemon-reload && systemctl --user enable --now sobre-node`
service-no-settings = nota: aún no hay { $file }: el servicio corre con los valores por omisión (guarde los suyos con `sobre node run … --save`)
service-no-home = HOME no está definido: no se sabe dónde va la unidad
doctor-clock-ahead = el reloj del rival { $player } va unos { $secs } s por delante del de este ordenador: se rechazan los eventos fechados a más de 2 minutos del reloj de quien los recibe
doctor-clock-behind = el reloj del rival { $player } va unos { $secs } s por detrás del de este ordenador: se rechazan los eventos fechados a más de 2 minutos del reloj de quien los recibe
doctor-clock-fix = compruebe que el reloj de este ordenador está sincronizado (`timedatectl` debe decir `System clock synchronized: yes`; active NTP con `timedatectl set-ntp true`), y pida a su rival que compruebe el suyo
doctor-clocks-ok = relojes: { $count } rival(es) medidos, todos a menos de { $secs } s del de este ordenador
doctor-key = clave de jugador: { $id }
doctor-settings = ajustes: { $path }
doctor-settings-none = ajustes: ninguno guardado (valores por omisión; guarde los suyos con `sobre node run … --save`)
doctor-settings-fix = arregle esa línea de node.toml
doctor-port-fix = libere el puerto { $port } o elija otro con `sobre node run --listen /ip4/0.0.0.0/tcp/PUERTO --listen /ip4/0.0.0.0/udp/PUERTO/quic-v1 --save` (y redirija ese)
doctor-not-running = nodo: parado (arránquelo con `sobre node start`)
doctor-port-taken = el puerto { $port } lo ocupa otro programa: su nodo tomaría un puerto al azar, así que su dirección cambiaría en cada arranque
doctor-running = nodo: en marcha
doctor-port-was-taken = el puerto { $port } estaba ocupado al arrancar el nodo: escucha en un puerto al azar, así que su dirección cambia en cada arranque
doctor-reachable = alcanzable desde fuera
doctor-reachable-relay = alcanzable a través del relé { $relays }
doctor-not-reachable = no alcanzable desde fuera (detrás de NAT o de un cortafuegos), y sin relé
doctor-not-reachable-fix = redirija el puerto { $port } (TCP y UDP) en su router y ejecute `sobre node run --external /ip4/IP_PUBLICA/tcp/{ $port } --save`, o use un relé con `--relay DIRECCIÓN --save`
doctor-reachability-unknown = alcance desde fuera: aún no se sabe (los pares lo comprueban cuando hay unos cuantos conectados)
doctor-no-bootstrap = ningún nodo de arranque guardado: a un jugador cuya dirección cambió solo se le encuentra por direcciones recordadas e invitaciones
doctor-no-bootstrap-fix = añada un nodo del club o público con `sobre node run --bootstrap /dns4/SERVIDOR/tcp/4848/p2p/ID --save`
doctor-bootstrap = nodos de arranque: { $count }
doctor-no-mailbox = ningún buzón guardado: sus jugadas esperan a que el nodo de su rival y el suyo estén conectados a la vez
doctor-no-mailbox-fix = use uno con `sobre node run --use-mailbox /dns4/SERVIDOR/tcp/4848/p2p/ID --save`
doctor-mailboxes = buzones: { $count }
doctor-ok = bien
doctor-problem = problema
doctor-fix = arreglo: { $fix }
doctor-nothing = nada que arreglar
doctor-count = { $count } cosa(s) que arreglar

## profile, invite, connect, league decide
profile-player = id de jugador: { $value }
profile-name = nombre:        { $value }
profile-club = club:          { $value }
profile-fide = id FIDE:       { $value }
profile-languages = idiomas:       { $value }
profile-no-name = (aún sin nombre: póngalo con `sobre profile set --name NOMBRE`; no se envía nada)
profile-needs-name = un perfil necesita un nombre
profile-hint-name = añada --name NOMBRE (de 1 a 64 caracteres)
profile-unchanged = no ha cambiado nada
profile-sent = perfil firmado; el nodo lo envía a sus rivales
profile-queued = perfil firmado; sus rivales lo recibirán cuando su nodo esté en marcha
invite-hint-name = ponga otro con `sobre init --name NOMBRE`
invite-no-address = no hay dirección que poner en la invitación: su nodo no está en marcha y no hay ninguna dirección externa guardada
invite-hint-no-address = arranque su nodo (`sobre node run`), o declare una dirección redirigida con `sobre node run --external /ip4/…/tcp/4848 --save`
invite-name-not-alias = el nombre de la invitación no sirve como alias
invite-hint-as = elija uno con --as ALIAS
invite-alias-taken = el alias { $alias } ya nombra a otro jugador ({ $other })
invite-hint-as-another = elija otro con --as ALIAS
invite-own = esta es su propia invitación
invite-hint-own = désela al otro jugador, y pídale la suya
invite-remembered = recordadas { $count } dirección(es); su nodo las está llamando
invite-queued = guardadas { $count } dirección(es): su nodo las llamará al arrancar
invite-hint-signature = pida de nuevo su invitación al jugador, por un canal de confianza (`sobre invite` la imprime)
invite-hint-version = actualice sobre, o pida al jugador una invitación que este sobre pueda leer
invite-hint-copy = copie la línea entera, entre comillas (`sobre invite` la imprime en la máquina del jugador)
decide-signed = decisión { $decision } firmada: { $text }

## league
league-joined = inscrito en { $name } ({ $league }): su nodo juega sus partidas según se abren sus rondas
league-none = no hay ligas
league-list-line = { $players } jugadores  ronda { $open }/{ $rounds }  { $games } partidas  ({ $role })
league-role-organiser = organizador
league-role-player = jugador
league-role-invited = invitado
league-role-witness = testigo
league-terms = organizador { $organiser } · { $kind } · ritmo { $time_control } · { $rounds } rondas{ $every }
league-double = liga a doble vuelta
league-single = liga a una vuelta
league-every = , una cada { $days } días
league-deputy = árbitro adjunto (las partidas del organizador) { $deputy }
league-opens = la ronda 1 se abre el { $time }
league-player-joined = inscrito
league-player-not-joined = aún no inscrito
league-games = partidas: { $finished } terminadas, { $playing } en juego, { $unplayed } sin empezar, { $excluded } excluidas
league-note = nota: { $note }
league-verify-definition = { $name }: la definición firmada por el organizador { $organiser } se verifica; { $joined } de { $players } jugadores inscritos
league-verify-games = { $count } partida(s) se verifican y cuentan; { $excluded } excluidas
league-verify-excluded = partida { $game }: { $reason }
league-verify-decision = decisión { $doc }: { $text }
league-verify-bad-decision = decisión { $doc } ({ $what }): { $text }
league-verify-bad-join = inscripción en la línea { $line }: { $why }
league-left-out = excluida
league-no-effect = sin efecto
league-node-archive-bad = el archivo de liga del nodo no se puede leer: { $error }
league-names-count = { $names } --name para { $players } --player: dé un nombre por jugador, o ninguno
league-hint-time-control = p. ej. --per-move 3d, --time 10/50d
league-bad-start = inicio incorrecto { $start }
league-hint-start = una fecha como 2026-12-01 o 2026-12-01T18:00:00Z
league-unheard = el organizador no ha respondido desde que arrancó su nodo: puede que falten partidas aquí
league-missing =
    { $count ->
        [one] 1 partida aún no recibida del organizador
       *[other] { $count } partidas aún no recibidas del organizador
    }
league-archive-bad = no es un archivo de liga legible: { $error }
league-hint-archive = escriba uno con `sobre league export LIGA -o FICHERO`
league-col-rank = Pos
league-col-number = Nº
league-col-player = Jugador
league-col-points = Ptos
league-col-sb = SB
league-col-wins = Vict
league-col-played = Jug
league-col-open = Pend
league-games-left-out = { $count } partida(s) excluidas; vea `sobre league verify`
league-tie-breaks = desempates: { $order }
league-arbiter = árbitro: { $text }
league-decisions-left-out = { $count } decisión(es) excluidas; vea `sobre league verify`
league-bad-round = ronda { $round }: esta liga tiene las rondas 1 a { $rounds }
league-round = Ronda { $round } (se abre el { $opens })
league-bye = { $name } descansa
league-forfeit = incomparecencia
league-adjudicated = adjudicada
league-not-started = sin empezar

## demo
demo-kept = directorios conservados en { $dir }
demo-title = demo de sobre: dos nodos reales sobre loopback (libp2p TCP+Noise+Yamux, sled en disco)
demo-home = directorio { $home }
demo-connects = el nodo de Ana conecta con el de Bruno en { $address }
demo-challenge = Ana reta a Bruno (Ana con blancas, 40 jugadas en 2 h y luego 1 h): partida { $game }
demo-accepts = el nodo de Bruno recibe el reto firmado; Bruno acepta.
demo-move = firmada, guardada, entregada; { $other } la tiene a los { $ms } ms
demo-draw = Bruno ofrece tablas (FIDE 9.1); Ana las rechaza.
demo-result = Resultado { $result } ({ $how }), el mismo en los dos nodos: { $plies } medias jugadas, posición final { $fen }
demo-archive = archivo de Bruno: { $events } eventos firmados de las dos planillas; `sobre verify` coincide: { $result } por { $how }
demo-pgn = PGN final (nodo de Ana):
demo-players = Jugadores: Ana { $ana }, Bruno { $bruno }
demo-seals = Fin de la sesión. Le toca a Ana, que sella { $mv } (Apéndice A1).
demo-envelope = Sobre (A2): jugada { $number }, sella { $sealer }, lugar { $place }
demo-envelope-position = posición antes de la jugada secreta { $fen }
demo-envelope-time = tiempo usado: blancas { $white } ms, negras { $black } ms
demo-commitment = Solo viaja el compromiso: SHA-256 { $hash }…; la jugada y su sal se quedan en el nodo de Ana.
demo-envelope-held = El nodo de Bruno guarda el sobre (estado { $status }); los relojes están parados.
demo-resumption = Reanudación: Bruno y Ana anuncian los dos que están ante el tablero (A7; con los dos presentes, el sobre no tiene que esperar a la hora acordada, A2.7).
demo-opened = El nodo de Ana abre el sobre: { $opened }; cada nodo lo comprueba contra el compromiso (A8): { $san }
demo-sealed-played = (la jugada secreta, jugada en la reanudación)

## errores de clap (solo en español: en inglés quedan los de clap)
parse-missing = faltan argumentos obligatorios:
parse-unknown-arg = argumento inesperado '{ $arg }'
parse-did-you-mean = consejo: existe uno parecido: '{ $suggestion }'
parse-unknown-command = comando desconocido '{ $command }'
parse-invalid-value = valor no válido '{ $value }' para '{ $arg }'
parse-possible-values = [valores posibles: { $values }]
parse-conflict = el argumento '{ $arg }' no se puede usar con '{ $other }'
parse-usage = Uso: { $usage }
parse-more = Para más información, pruebe '--help'.

## errores de las bibliotecas (cli/i18n/errors.rs)
key-missing = no hay clave en { $path }: ejecute `sobre init` primero
key-damaged = el fichero de clave { $path } está dañado (se esperaban 32 bytes)
key-exists = { $home } ya guarda la clave de { $player }
key-io = no se puede leer ni escribir la clave en { $path }: { $error }
player-id-not-peer = { $text } no es un id de jugador (se esperaba un id de par de libp2p como 12D3KooW…)
player-id-not-ed25519 = { $text } es un id de par, pero no de una clave ed25519
profile-field-name = nombre
profile-field-club = club
profile-err-codec = perfil indescifrable: { $error }
profile-err-version = versión de perfil no admitida { $version } (esta versión lee la { $reads })
profile-err-signature = firma incorrecta en el perfil de { $player } (un perfil debe firmarlo su jugador)
profile-err-empty = el { $field } está vacío
profile-err-too-long = el { $field } tiene { $chars } caracteres; se permiten como mucho { $max }
profile-err-control = el { $field } contiene un carácter de control o de dirección del texto
profile-err-not-trimmed = el { $field } tiene espacios al principio o al final
profile-err-federation = el id de federación { $id } no tiene de 1 a { $max } cifras (p. ej. un id FIDE como 2016192)
profile-err-languages = { $count } idiomas; se permiten como mucho { $max }
profile-err-language = { $tag } no es una etiqueta de idioma (como es, en o pt-BR)
profile-err-duplicate-language = el idioma { $tag } aparece dos veces
profile-err-future = el perfil tiene fecha { $issued }, más de { $max } ms después de este reloj ({ $now })
local-profile-io = no se puede leer ni escribir { $path }: { $error }
local-profile-damaged = { $path } no es un objeto JSON: { $reason }
local-profile-invalid = el perfil de { $path } no es válido: { $error }

## envelope
envelope-which-game = ¿qué partida? sobre envelope PARTIDA
envelope-opened-as-arbiter = abierta { $game } como su árbitro: jugada secreta de { $sealer }: { $mv } (A9)
envelope-resigned = abandono: { $result }
envelope-to-resign = para abandonar: sobre envelope lost { $game } --resign
envelope-none = no hay jugada secreta en { $game }
envelope-label-game = Partida
envelope-label-sealed-by = Sellada por
envelope-label-sealed-at = Sellada el
envelope-label-move = Número de jugada
envelope-label-position = Posición anterior
envelope-label-time = Tiempo usado
envelope-label-draw = Oferta de tablas
envelope-label-resumes = Se reanuda
envelope-label-place = Lugar
envelope-label-opened = Abierta
envelope-label-letters = Escrita en
envelope-label-kept = La guarda
envelope-label-commitment = Compromiso
envelope-time-used = blancas { $white }, negras { $black }
envelope-none-word = ninguna
envelope-not-set = sin fijar
envelope-no = no
envelope-yes = sí
envelope-yes-move = sí: { $mv }
envelope-letters-es = letras españolas (R D T A C)
envelope-letters-en = letras inglesas (K Q R B N)
envelope-letters-either = cualquiera de los dos idiomas (sellada antes de que se registraran las letras)
envelope-kept = el árbitro { $arbiter } (la apertura en depósito, A3)
envelope-kept-opened = el árbitro { $arbiter } (la apertura en depósito, A3); abierta por el árbitro
envelope-kept-alone = solo quien selló (sin árbitro: perder la apertura pierde, A8, A10)

## duraciones y ritmos de juego
duration-invalid = duración no válida { $input }: { $why }
duration-empty = duración vacía (escriba p. ej. 3d, 12h, 90m, 30s o 1d12h)
duration-expected-number = se esperaba un número antes de { $found }
duration-missing-unit = falta la unidad tras { $number } (use d, h, m, s o ms)
duration-unknown-unit = unidad desconocida { $unit } (use d, h, m, s o ms)
duration-unexpected = { $found } inesperado
duration-unit-order = unidad { $unit } repetida o desordenada (la mayor primero, p. ej. 1d12h)
duration-overflow = demasiado larga
tc-invalid = ritmo de juego no válido { $input }: { $why }
tc-empty = vacío (escriba p. ej. 3d, 10/50d, 40/2h+1h o unlimited)
tc-move-count = número de jugadas incorrecto { $text } (un número entero de jugadas, al menos 1)
tc-part-period = un periodo
tc-part-final = el periodo final
tc-part-per-move = el tiempo por jugada
tc-zero-time = { $part } debe durar más de cero
tc-no-periods = ningún periodo con tiempo
tc-correspondence-shape = un ritmo de correspondencia es un periodo con un incremento opcional, p. ej. 3d+1d o 10/50d+1d (empiece con `otb ` para periodos sobre el tablero)
tc-after-final = { $text } va después del periodo final (el periodo sin número de jugadas debe ser el último)
tc-ambiguous-plus = +{ $text } tras un periodo con número de jugadas sería un periodo final de { $text }; escriba `inc { $text }` para un incremento, o `:{ $text }` para ese periodo final
tc-duplicate-bonus = más de un incremento o demora
tc-empty-period = periodo vacío entre separadores
tc-unexpected = { $text } inesperado (tras los periodos: `inc 30s`, `d5s` o `delay 5s`)

## FEN y posiciones imposibles
fen-empty = FEN vacío
fen-board = tablero del FEN: { $why }
fen-turn = el turno del FEN debe ser 'w' o 'b', no { $text }
fen-castling = el campo de enroque del FEN { $text } no es KQkq, X-FEN ni Shredder-FEN
fen-en-passant = el campo de captura al paso del FEN { $text } no es '-' ni una casilla de la fila 3 o 6
fen-counter = el contador de jugadas del FEN { $text } no es un número
fen-trailing = el FEN tiene campos de más: { $text }
position-illegal = posición ilegal: { $why }
position-no-king = las { $colour } no tienen rey
position-kings = las { $colour } tienen más de un rey
position-pieces = las { $colour } tienen más de 16 piezas
position-pawn-rank = hay un peón en la primera o la última fila
position-opposite-check = el bando al que no le toca ({ $colour }) está en jaque
position-impossible-check = el bando al que le toca recibe jaque de más de dos piezas, o de una pareja imposible
position-castling = el derecho de enroque con una torre en { $square } es imposible (no hay torre o el rey no está en su primera fila)
position-en-passant = la casilla de captura al paso { $square } es imposible en esta posición

## games
games-none = no hay partidas (desafíe a alguien con `sobre challenge JUGADOR`)
games-col-game = PARTIDA
games-col-opponent = RIVAL
games-col-colour = COLOR
games-col-move = JUGADA
games-col-last = ÚLTIMA
games-col-status = ESTADO
games-col-time-left = TIEMPO RESTANTE
games-col-notes = NOTAS
games-your-move = (* le toca a usted)
games-status-challenged-you = le ha desafiado
games-status-challenge-sent = desafío enviado
games-status-result = { $status } { $result }
games-note-my-draw-offer = su oferta de tablas sigue en pie
games-note-draw-offered = le ofrecen tablas
games-note-claim = puede reclamar: { $claims }
games-claim-threefold = triple repetición
games-claim-fifty = cincuenta jugadas
games-claim-time = tiempo
games-claim-dead = posición muerta
games-claim-lateness = retraso
games-note-leave = rival de permiso hasta { $until }
games-note-unread =
    { $count ->
        [one] 1 línea de chat sin leer
       *[other] { $count } líneas de chat sin leer
    }
games-note-resumes = se reanuda el { $at }
games-hidden =
    { $count ->
        [one] (1 partida terminada hace más de 7 días no se muestra: `sobre games --all`)
       *[other] ({ $count } partidas terminadas hace más de 7 días no se muestran: `sobre games --all`)
    }
games-no-league = no hay ninguna liga { $league }
games-hint-league-list = `sobre league list` muestra las ligas que conoce este nodo
games-league-ambiguous = { $league } nombra { $count } ligas
games-hint-league-prefix = dé más caracteres del id de la liga

## show, y la línea de estado de las órdenes que cambian una partida
show-game = Partida { $game }
show-white = Blancas: { $player }
show-black = Negras: { $player }
show-time-control = Ritmo de juego: { $tc }
show-undecided = (se decide al empezar la partida)
show-you = { $player } (usted)
show-draw-offered = Las { $colour } ofrecen tablas.
show-claim = Reclamación de las { $colour }: { $reason } ({ $verdict }).
show-claim-judged = Reclamación de las { $colour }: { $reason } ({ $verdict }: { $judgement }).
show-claim-correct = correcta
show-claim-incorrect = incorrecta
show-claim-pending = pendiente
show-claim-threefold = triple repetición
show-claim-fifty = cincuenta jugadas
show-claim-time = tiempo
show-claim-dead = posición muerta
show-claim-lateness = retraso
show-disputed =
    En disputa: { $count ->
        [one] 1 doble firma
       *[other] { $count } dobles firmas
    } (dos eventos distintos firmados con el mismo número).
show-chat-earlier =
    Chat ({ $count ->
        [one] 1 línea anterior no mostrada
       *[other] { $count } líneas anteriores no mostradas
    }):
show-chat = Chat:
show-no-chat = no hay chat en la partida { $game }
show-chat-in = Chat de la partida { $game }:
show-leave-named = { $colour } ({ $name })
show-leave-until = { $who } hasta { $until }
show-leave-from-until = { $who } desde { $from } hasta { $until }
show-on-leave = De permiso: { $leave }.
show-coin-awaits = Moneda limpia: quien desafió puede abrirla hasta { $deadline }; después el rival la resuelve por omisión (F1).
show-coin-defaulted = Moneda limpia: no se abrió a tiempo; resuelta por elección del rival (F1).
state-ended = { $status }.
state-ended-why = { $status }: { $why }.
state-ended-result = { $status }: { $result }.
state-ended-result-why = { $status }: { $result } ({ $why }).
state-pending-coin = Pendiente: aceptada; esperando a que quien desafió abra la moneda limpia.
state-pending = Pendiente: esperando a que se acepte el desafío.
state-adjourned = Aplazada: la jugada secreta se abre en la reanudación.
state-to-move = { $status }: juegan las { $colour }.
state-to-move-mine = { $status }: juegan las { $colour } (le toca a usted).
show-clock = { $colour } { $time }
show-clock-running = { $clock } (en marcha)
show-clock-flagged = { $clock } (bandera caída)
show-clocks = Relojes: { $white }, { $black }.
show-clock-unlimited = sin límite
show-sealed = Jugada secreta: de las { $colour } en la jugada { $number }, { $opened }{ $resumes }.
show-sealed-not-opened = sin abrir
show-sealed-opened = abierta
show-sealed-opened-move = abierta: { $mv }
show-resumes = ; se reanuda el { $at }
show-resumes-at-place = ; se reanuda el { $at } en { $place }
show-resumes-place = ; se reanuda en { $place }

## move, resign, abort, draw, resume, adjourn, claim, conditional
move-played = jugada { $mv } en { $game }: { $state }
move-dry-run = prueba: { $mv } en { $game } (no se ha firmado ni enviado nada)
move-would-end = La partida terminaría: { $ending }.
resign-done = abandonada { $game }: { $state }
abort-done = anulada { $game }: { $state }
draw-offered = tablas ofrecidas en { $game }: { $state }
draw-accepted = tablas aceptadas en { $game }: { $state }
draw-declined = tablas rechazadas en { $game }: { $state }
resume-present = presente en { $game }: { $state }
adjourn-done = aplazada { $game }
adjourn-kept-by = La guarda el árbitro { $arbiter }: su nodo abre el sobre en la reanudación si usted no está o pierde la apertura (A3, A9, A11).
adjourn-no-arbiter = Ningún árbitro guarda la apertura: si usted la pierde, pierde la partida (A8, A10); nombre uno con --arbiter JUGADOR.
claim-correct = reclamación correcta en { $game }: { $state }
claim-incorrect = reclamación incorrecta en { $game }: { $state }
claim-correct-judged = reclamación correcta ({ $judgement }) en { $game }: { $state }
claim-incorrect-judged = reclamación incorrecta ({ $judgement }) en { $game }: { $state }
claim-recorded = reclamación registrada en { $game }: { $state }
conditional-needs-line = conditional add necesita una línea de jugadas
conditional-hint-line = p. ej. sobre conditional PARTIDA add "Cf6 e5 Cd5 c4"
conditional-only-add = solo `add` admite jugadas
conditional-none = no hay jugadas condicionales

## la pregunta antes de un paso que no se puede deshacer (cli/commands/confirm.rs)
confirm-resign = ¿Abandonar la partida { $game }? [s/N]
confirm-resign-against = ¿Abandonar la partida { $game } contra { $opponent }? [s/N]
confirm-abort = ¿Anular la partida { $game }? [s/N]
confirm-abort-against = ¿Anular la partida { $game } contra { $opponent }? [s/N]
confirm-draw = ¿Aceptar las tablas en la partida { $game }? [s/N]
confirm-draw-against = ¿Aceptar las tablas en la partida { $game } contra { $opponent }? [s/N]
confirm-called-off = No se ha enviado nada.

## key export, key import; lecturas sin el nodo
key-file-exists = { $path } ya existe
key-hint-file-exists = elija otro fichero, o --force para reemplazarlo
key-exported = la clave de { $player } está en { $path } (guarde el fichero y la frase de paso por separado)
key-hint-exists = impórtela en un directorio de trabajo nuevo (--home DIR), o --force para reemplazar esa clave
key-imported = la clave de { $player } está en { $home }; detenga cualquier otro nodo con esta clave antes de `sobre node run`
keyfile-wrong = frase de paso incorrecta
keyfile-hint-wrong = escriba la frase de paso que se dio al exportar
keyfile-weak = la frase de paso es demasiado corta: al menos { $min } caracteres
keyfile-hint-weak = unas cuantas palabras son fáciles de recordar
keyfile-tampered = el fichero de clave fue alterado o está dañado: no se descifra en la clave que nombra
keyfile-not-a-key-file = no es un fichero de clave de sobre (no empieza por SOBREKEY, o tiene { $bytes } bytes, no { $expected })
key-env-unset = --passphrase-env: { $var } no está definida
key-no-terminal = no hay un terminal donde pedir la frase de paso
key-hint-no-terminal = dé --passphrase-file FICHERO, o --passphrase-env con { $var } definida
key-prompt = frase de paso:
key-prompt-again = la misma frase de paso otra vez:
key-passphrases-differ = las dos frases de paso no coinciden
note-stale = nota: el nodo no está en marcha; leído de { $home } tal como lo dejó el nodo, así que pueden faltar jugadas enviadas después (la vista puede estar desfasada; `sobre node start` la pone al día)
hint-try-again = inténtelo de nuevo en un momento

## watch: qué ha pasado, y los nombres de sus detalles
watch-event = evento
watch-event-challenge = desafío
watch-event-accept = aceptación
watch-event-decline = rechazo
watch-event-abort = anulación
watch-event-move = jugada
watch-event-draw-offer = oferta de tablas
watch-event-draw-accept = tablas aceptadas
watch-event-draw-decline = tablas rechazadas
watch-event-claim = reclamación
watch-event-resign = abandono
watch-event-seal = jugada secreta
watch-event-presence = presencia
watch-event-reveal = apertura
watch-event-receipt = acuse
watch-event-chat = chat
watch-event-leave = permiso
watch-event-random-reveal = moneda abierta
watch-event-escrow = custodia
watch-event-arbiter-open = apertura por el árbitro
watch-event-coin-default = moneda por omisión
watch-event-profile = perfil
watch-event-league = liga
watch-event-equivocation = doble firma
watch-event-reminder = recordatorio
watch-key-by = por
watch-key-status = estado
watch-key-from = vía
watch-key-documents = documentos
watch-key-name = nombre
watch-key-player = jugador

## Las negativas del nodo, por su código (cli/i18n/refusals.rs)
refusal-unknown-game = partida desconocida { $prefix }
refusal-unknown-game-hint = vea las partidas con `sobre games`
refusal-ambiguous-game = el identificador de partida { $prefix } es ambiguo: { $count } partidas empiezan así
refusal-ambiguous-game-hint = escriba más caracteres del identificador
refusal-no-game-id = no se ha dado el identificador de la partida
refusal-game-not-kept = partida desconocida
refusal-unknown-league = liga desconocida { $text }
refusal-unknown-league-hint = vea las ligas con `sobre league list`
refusal-ambiguous-league = { $text } coincide con { $count } ligas
refusal-ambiguous-league-hint = escriba más caracteres del identificador de la liga
refusal-not-in-game = usted no juega en esta partida
refusal-game-adjourned = la partida está aplazada
refusal-game-adjourned-hint = `sobre resume PARTIDA` en la reanudación
refusal-game-not-started = la partida no ha empezado
refusal-game-over = la partida ha terminado
refusal-not-your-move = no le toca mover
refusal-challenge-self = no puede desafiarse a sí mismo
refusal-no-challenge = no hay ningún desafío que aceptar en esta partida
refusal-move-syntax = no se puede leer `{ $text }` como jugada
refusal-move-illegal = `{ $text }` no es una jugada legal en esta posición
refusal-move-ambiguous = `{ $text }` es ambigua: encaja con más de una jugada legal
refusal-move-in = { $context }: { $line }
refusal-move-sealed = la jugada secreta
refusal-move-intended = la jugada anunciada
refusal-move-conditional = línea condicional, jugada { $n }
refusal-move-hint = las jugadas se escriben Cf3, Nf3, g1f3 o 7163
refusal-move-hint-origin = escriba la columna o la fila de origen, p. ej. Cbd7
refusal-move-hint-letters = diga qué letras escribe: --notation es (R es el rey) o --notation en (R es una torre), o ponga "notation" en HOME/config.json
refusal-no-draw-offer = el adversario no tiene ninguna oferta de tablas en pie (9.1)
refusal-claim-not-on-move = solo el jugador al que le toca mover puede reclamar tablas (9.2, 9.3)
refusal-intended-illegal = la jugada anunciada es ilegal
refusal-claim-adjourned = la partida está aplazada
refusal-abort-too-late = una partida solo se puede anular antes de la primera jugada de las negras
refusal-accept-not-allowed = solo el jugador desafiado acepta, una vez
refusal-decline-not-allowed = solo el jugador desafiado rechaza una partida pendiente
refusal-colours-not-settled = los colores aún no están decididos (la moneda no se ha abierto)
refusal-out-of-turn = fuera de turno: mueven { $colour }
refusal-not-live = no es posible en una partida { $status }
refusal-no-move-in-status = no hay jugadas en una partida { $status }
refusal-open-sealed-first = la partida está aplazada: primero se abre la jugada secreta (A7)
refusal-no-leave = no hay ningún permiso en curso
refusal-not-league-player = usted no es jugador de esta liga

## Recordatorios (cli/commands/reminders.rs, y `sobre watch`)
reminders-none = aún no hay recordatorios
reminder-kind-move-arrived = jugada recibida
reminder-kind-clock-low = reloj bajo
reminder-kind-claim-possible = reclamación posible
reminder-kind-auto-claim = reclamación automática
reminder-kind-league-round = ronda de liga
reminder-kind-resumption = reanudación

## Más negativas del nodo, por su código (cli/i18n/refusals.rs)
refusal-not-organiser = solo el organizador de la liga ({ $organiser }) firma sus decisiones
refusal-not-organiser-deputy = solo el organizador de la liga ({ $organiser }) firma sus decisiones, y su árbitro adjunto ({ $deputy }) las de las partidas del organizador
refusal-resumption-missing = el sobre debe decir cuándo se reanuda la partida (A2.7)
refusal-resumption-missing-hint = añada --resume-at, p. ej. --resume-at 2026-12-01T18:00:00Z o +2d
refusal-resumption-past = la hora de reanudación ya ha pasado (A2.7)
refusal-resumption-past-hint = dé una hora futura, p. ej. --resume-at +2d
refusal-conditional-your-move = le toca mover: las jugadas condicionales responden a la próxima jugada del adversario
refusal-conditional-short = una línea condicional es la jugada del adversario y luego su respuesta, p. ej. "Cf6 e5"
refusal-conditional-no-line = conditional add necesita una línea de jugadas
refusal-chat-too-long = las líneas de chat tienen como máximo 2000 bytes
refusal-challenge-colour = color { $text }: white, black o random
refusal-unknown-colour = color desconocido { $text }
refusal-unknown-colour-hint = diga white o black
refusal-block-self = no puede bloquearse a sí mismo
refusal-colours-fixed = el desafío fijó los colores: no hay color que elegir
refusal-colours-fixed-hint = quite --colour
refusal-start-fixed = el desafío fijó la posición inicial: no hay posición de Chess960 que elegir
refusal-start-fixed-hint = quite --position
refusal-abort-coin = el desafío está aceptado y la moneda justa espera que usted la abra: anular ahora retendría el sorteo y se ignora (F1)
refusal-abort-coin-hint = su nodo abre la moneda por sí mismo; `sobre abort` funciona en cuanto la partida ha empezado
refusal-adjourn-correspondence = una partida por correspondencia no se aplaza: el sellado es para partidas sobre el tablero (Apéndice A1)
refusal-adjourn-correspondence-hint = en la partida por correspondencia, tome un permiso (sobre leave start --days N)
refusal-resumption-too-far = la reanudación queda a más de 30 días del sellado (A2.7)
refusal-resumption-too-far-hint = reanude dentro de 30 días
refusal-before-resumption = el sobre se abre a la hora de reanudación acordada, o antes solo si ambos jugadores están presentes (A2.7, A7)
refusal-responder-absent = el jugador que responde no está presente: el sobre sigue cerrado (A7)
