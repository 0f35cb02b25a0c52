## sobre: las ayudas en español (`--help`, `sobre man`, las completions). El inglés son los
## comentarios `///` del código; aquí, una entrada por orden (`sobre-league-create`) y por
## argumento (`sobre-league-create--player`), con `.long` para la ayuda larga de `--help`.
## Las líneas de un párrafo se unen; una línea en blanco separa párrafos. Un test comprueba
## que no queda nada en inglés y que toda clave nombra una orden o un argumento.

-partida = El id de la partida (o un prefijo único de él)
-json = Imprime un objeto JSON
-liga = Id de la liga (o sus primeras cifras), nombre, o la ruta de un archivo de liga
-notacion-jugada =
    Cómo escribe las jugadas: en (R es la torre, rook), es (R es el rey), figurine, uci o
    iccf. Por omisión: "notation" en HOME/config.json; sin ninguno de los dos decide la
    posición, y una jugada legal leída de las dos maneras (Rd1) se rechaza hasta que diga cuál

-json-escritura =
    Imprime la respuesta del nodo como un objeto JSON (para una partida, su estado
    resultante: los campos de `show --json`)
-sin-pregunta =
    No pide confirmación (solo se pide cuando la entrada estándar es un terminal)

sobre = Ajedrez por correspondencia entre pares y partidas aplazadas
sobre--home =
    El directorio de trabajo: su clave, sus partidas y el socket del nodo (por omisión, el
    directorio de datos de la plataforma)
arg-help = Muestra la ayuda
    .long = Muestra la ayuda (un resumen con '-h')
    .more = Muestra la ayuda (más con '--help')
arg-version = Muestra la versión
cmd-help = Muestra este mensaje o la ayuda de las subórdenes dadas

sobre-init =
    Crea su clave de jugador en el directorio de trabajo (nunca la sobrescribe) e imprime su
    id de jugador
    .long =
        Crea su clave de jugador en el directorio de trabajo (nunca la sobrescribe) e imprime
        su id de jugador.

        El id de jugador (`12D3KooW…`) es lo que otros usan para retarle. Ejecutar `init` otra
        vez conserva la clave y solo cambia el nombre. El directorio es `--home`, si no
        `$SOBRE_HOME`, si no el directorio de datos de la plataforma.

        Con --json, un objeto: `player_id`, `name`, `created` (false si la clave ya existía),
        `home`.
sobre-init--name =
    Su nombre tal como lo ven sus rivales (de 1 a 64 caracteres; se guarda en
    HOME/profile.json, firmado y enviado a sus rivales: vea `sobre profile`)
sobre-init--json = { -json }
sobre-id =
    Imprime su id de jugador y su nombre; con el nodo en marcha, también las direcciones a las
    que otros pueden llamar (`sobre peers connect DIRECCIÓN`)
    .long =
        Imprime su id de jugador y su nombre; con el nodo en marcha, también las direcciones a
        las que otros pueden llamar (`sobre peers connect DIRECCIÓN`).

        Funciona sin el nodo. Con --json, un objeto: `player_id`, `name`, `node_running`,
        `addresses` (vacía si el nodo no está en marcha).
sobre-id--json = { -json }

sobre-node = Arranca, examina, detiene o repara su nodo (uno por directorio de trabajo)
sobre-node-run =
    Ejecuta su nodo en primer plano hasta Ctrl-C, SIGTERM o `sobre node stop`
    .long =
        Ejecuta su nodo en primer plano hasta Ctrl-C, SIGTERM o `sobre node stop`.

        El nodo guarda sus partidas, firma sus jugadas, las entrega a sus rivales (reintentando
        hasta que cada una se confirma) y atiende a las demás órdenes de `sobre` por un socket
        en el directorio de trabajo. Los ajustes vienen de HOME/node.toml (escrito con --save);
        cada opción dada sustituye a su ajuste (una opción de lista sustituye a la lista
        guardada). Sin --listen en ninguno de los dos, escucha en todas las interfaces en el
        puerto 4848, TCP y QUIC (un puerto al azar, con un aviso, si el 4848 está ocupado);
        `sobre id` imprime las direcciones que dar a los demás.
sobre-node-run--listen = Escucha en esta multiaddr (repetible), p. ej. /ip4/0.0.0.0/tcp/4001
sobre-node-run--external =
    Una dirección en la que otros alcanzan este nodo (repetible): un puerto redirigido de su
    router o un servidor público, p. ej. /ip4/203.0.113.7/tcp/4848. Se anuncia a los pares y
    va en las invitaciones
sobre-node-run--bootstrap =
    Conecta con este par al arrancar (repetible), p. ej. /ip4/1.2.3.4/tcp/4001/p2p/12D3KooW…
sobre-node-run--mdns =
    Busca pares en la red local (la sala de un club) con mDNS (--mdns=false desactiva un
    ajuste guardado)
sobre-node-run--relay_server =
    Hace de relé para jugadores detrás de NAT (para un nodo con dirección pública)
sobre-node-run--relays =
    Reserva una dirección retransmitida en este relé (repetible; incluya /p2p/<id del relé>)
sobre-node-run--mailbox =
    Hace de buzón: guarda y sirve las partidas que otros jugadores entregan aquí
sobre-node-run--mailboxes =
    Entrega también sus eventos a este buzón y se pone al día desde él (repetible)
sobre-node-run--manual_coin_default =
    No resuelve por su cuenta una moneda que el retador no abrió una vez pasado el plazo: lo
    hace usted con `sobre coin default`
sobre-node-run--max_inbound_per_ip =
    Conexiones entrantes aceptadas desde una dirección IP (el doble desde una red /24 o /48;
    32 por omisión); sus rivales y buzones nunca se rechazan. Un buzón cuyos jugadores
    comparten una dirección lo sube
sobre-node-run--save =
    Escribe los ajustes de esta ejecución (HOME/node.toml y las opciones dadas) en
    HOME/node.toml, para que el próximo `sobre node run` no necesite opciones
sobre-node-run--no_settings =
    Ignora HOME/node.toml: usa solo las opciones dadas y los valores por omisión
sobre-node-run--log_file =
    Escribe el registro en este fichero, rotado al pasar de 4 MiB, en vez de en la salida de
    errores (lo que usa `sobre node start`)
sobre-node-status =
    Muestra si su nodo está en marcha, desde cuándo, y cuántos pares, partidas y eventos sin
    entregar tiene
    .long =
        Muestra si su nodo está en marcha, desde cuándo, y cuántos pares, partidas y eventos
        sin entregar tiene.

        También si es alcanzable desde fuera (AutoNAT: los pares intentan llamarle), a través
        de qué relé, y cada rival de una partida sin terminar: conectado, o cuándo se le vio
        por última vez.

        Con --json, el objeto de estado del nodo: `player_id`, `uptime_ms`, `peers`, `games`,
        `outbox`, `mailbox`, `reachability` (`public`, `private`, `unknown`),
        `public_address`, `relays`, `opponents` (cada uno con `player`, `connected`,
        `last_seen_ms`).
sobre-node-status--json = { -json }
sobre-node-stop =
    Detiene su nodo ordenadamente, tanto si corre en una terminal, con `node start` o como
    servicio (los eventos sin entregar quedan en la bandeja de salida para la próxima vez)
sobre-node-repair =
    Reconstruye la base de datos del nodo a partir de los eventos firmados que guarda (con el
    nodo parado)
    .long =
        Reconstruye la base de datos del nodo a partir de los eventos firmados que guarda (con
        el nodo parado).

        Cada partida se relee y se verifica; la base de datos antigua se guarda junto a la
        nueva. Los eventos que falten se piden de nuevo a los pares en el próximo
        `sobre node run`.
sobre-node-start =
    Ejecuta su nodo en segundo plano, con el registro en HOME/node.log (que pasa a node.log.1,
    sustituyendo al anterior, cuando supera 4 MiB, también con el nodo en marcha);
    `sobre node stop` lo detiene
    .long =
        Ejecuta su nodo en segundo plano, con el registro en HOME/node.log (que pasa a
        node.log.1, sustituyendo al anterior, cuando supera 4 MiB, también con el nodo en
        marcha); `sobre node stop` lo detiene.

        Ejecuta `sobre node run` con los ajustes de HOME/node.toml y las opciones dadas tras
        `--`, p. ej. `sobre node start -- --mdns`.
sobre-node-start--run_args = Opciones para `sobre node run`
sobre-node-install =
    Instala su nodo como un servicio que arranca al iniciar sesión y se reinicia si falla: una
    unidad de usuario de systemd en Linux (~/.config/systemd/user/sobre-node.service), un
    agente de launchd en macOS (~/Library/LaunchAgents/org.sobre.node.plist). Ejecuta
    `sobre node run` con los ajustes de HOME/node.toml (guárdelos antes con
    `sobre node run … --save`)
sobre-node-install--print = Imprime la unidad en vez de escribirla
sobre-node-doctor =
    Comprueba los fallos comunes (sin clave, un node.toml dañado, el puerto por omisión
    ocupado, sin nodo de arranque, sin buzón, no alcanzable desde fuera) y dice cómo arreglar
    cada uno
    .long =
        Comprueba los fallos comunes (sin clave, un node.toml dañado, el puerto por omisión
        ocupado, sin nodo de arranque, sin buzón, no alcanzable desde fuera) y dice cómo
        arreglar cada uno.

        Termina con 1 si hay algo que arreglar. (El desfase de reloj con los pares aún no se
        comprueba.)

sobre-peers = Conecta con otros nodos y lista los conectados
sobre-peers-connect =
    Llama a un nodo por su dirección (como la imprime `sobre id` en esa máquina) y la recuerda
sobre-peers-connect--multiaddr =
    La multiaddr del nodo, p. ej. /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW…
sobre-peers-list =
    Lista los pares conectados y luego los recordados (rivales, buzones, contactos, pares
    conectados a mano o conocidos por una invitación, a los que se vuelve a llamar en cada
    arranque), una línea `ID_DE_PAR DIRECCIÓN…` cada uno
    .long =
        Lista los pares conectados y luego los recordados (rivales, buzones, contactos, pares
        conectados a mano o conocidos por una invitación, a los que se vuelve a llamar en cada
        arranque), una línea `ID_DE_PAR DIRECCIÓN…` cada uno.

        Con --json, el objeto del nodo: `connected` y `known`, cada uno una lista de
        `peer`, `addresses`.
sobre-peers-list--json = { -json }

sobre-contacts = Alias locales de jugadores: `sobre challenge ana` en vez del id completo
    .long =
        Alias locales de jugadores: `sobre challenge ana` en vez del id completo.

        Los alias son solo suyos (nunca se envían a nadie) y sirven en cualquier sitio donde se
        pida un id de jugador.
sobre-contacts-add =
    Da a un id de jugador un alias local (sustituyendo el id anterior del alias, si lo había)
sobre-contacts-add--alias =
    El alias: letras, cifras, `-`, `_` o `.`, sin empezar por `12D3KooW`
sobre-contacts-add--player_id =
    El id de jugador (`12D3KooW…`, como lo imprime `sobre id`), o la invitación del jugador
    (`sobre:invite/…`, como la imprime `sobre invite`): entonces también se recuerdan sus
    direcciones y se les llama
sobre-contacts-list =
    Lista los alias: una línea `ALIAS  ID_DE_JUGADOR` cada uno, por orden de alias
    .long =
        Lista los alias: una línea `ALIAS  ID_DE_JUGADOR` cada uno, por orden de alias.

        Con --json, un objeto que asocia cada alias con su id de jugador.
sobre-contacts-list--json = Imprime un objeto JSON en vez de líneas

sobre-profile =
    Su perfil de jugador: el nombre que otros ven en `games`, `show`, `watch` y el PGN exportado
    .long =
        Su perfil de jugador: el nombre que otros ven en `games`, `show`, `watch` y el PGN
        exportado.

        El perfil se guarda en HOME/profile.json y se firma con su clave; el nodo lo envía a
        sus rivales y a los miembros de sus ligas con los retos, las aceptaciones y las
        inscripciones en ligas, y de nuevo cada vez que cambia. Un alias de contacto que otros
        le den lo sustituye en sus pantallas.
sobre-profile-show =
    Muestra su perfil tal como lo reciben los demás
    .long =
        Muestra su perfil tal como lo reciben los demás.

        Con --json, un objeto: `player_id`, `name`, `club`, `federation_id`, `languages`,
        `issued_ms` (null si no se han dado), `signed` (si tiene un nombre que firmar).
sobre-profile-show--json = { -json }
sobre-profile-set =
    Cambia su perfil (un nuevo perfil firmado, enviado a sus rivales si el nodo está en marcha)
    .long =
        Cambia su perfil (un nuevo perfil firmado, enviado a sus rivales si el nodo está en
        marcha).

        Con --json, el mismo objeto que `profile show`, más `sent` (si el nodo en marcha tomó el
        nuevo perfil para enviarlo).
sobre-profile-set--name =
    Su nombre visible (de 1 a 64 caracteres, sin caracteres de control)
sobre-profile-set--club = Su club (de 1 a 64 caracteres); un valor vacío lo quita
sobre-profile-set--fide_id =
    Su id FIDE (o de otra federación), solo cifras; un valor vacío lo quita
sobre-profile-set--languages =
    Los idiomas que habla, el preferido primero, separados por comas (p. ej. `es,en`); un
    valor vacío los quita
sobre-profile-set--json = { -json }

sobre-block =
    Rechaza a un jugador para siempre: sus retos pendientes se descartan, su nodo se
    desconecta y se rechaza, y nada de lo que firme se acepta ya (tampoco en partidas en
    curso). Sin jugador, lista los jugadores bloqueados
    .long =
        Rechaza a un jugador para siempre: sus retos pendientes se descartan, su nodo se
        desconecta y se rechaza, y nada de lo que firme se acepta ya (tampoco en partidas en
        curso). Sin jugador, lista los jugadores bloqueados.

          sobre block 12D3KooWxyz…          rechaza a este jugador
          sobre block pesado --remove       lo levanta (sirve también un alias de `sobre contacts`)
          sobre block                       lista
sobre-block--player =
    El jugador: un id de jugador (12D3KooW…) o un alias de `sobre contacts`
sobre-block--remove = Levanta el bloqueo en su lugar
sobre-block--json = Imprime un objeto JSON: `blocked`, la lista de ids de jugador bloqueados

sobre-challenge =
    Reta a un jugador (por id o alias) a una partida e imprime el id de la nueva partida
    .long =
        Reta a un jugador (por id o alias) a una partida e imprime el id de la nueva partida.

        Ritmos de juego (por omisión, 3 días por jugada):
          --per-move 3d           correspondencia, cada jugada en 3 días
          --time 10/50d           correspondencia, al estilo ICCF: 10 jugadas en 50 días, el
                                  tiempo no usado se acumula
          --classical 40/2h+1h    sobre el tablero (para una partida aplazada con jugada
                                  secreta): 40 jugadas en 2 horas, luego 1 hora para el resto

        --increment añade tiempo tras cada jugada: se escribe `+1d` tras un ritmo de
        correspondencia (`3d+1d`, `10/50d+1d`), `inc 30s` tras uno sobre el tablero.

        La partida empieza cuando el rival acepta. Con --json, la vista del nodo de la nueva
        partida (como `sobre show --json`), cuyo `game` es el id.
sobre-challenge--player =
    El rival: un id de jugador (12D3KooW…) o un alias de `sobre contacts`
sobre-challenge--color = Su color
sobre-challenge--per_move = Tiempo de correspondencia por jugada (p. ej. 3d, 36h)
sobre-challenge--time =
    Jugadas de correspondencia en un periodo, con el tiempo acumulado (p. ej. 10/50d)
sobre-challenge--classical =
    Periodos sobre el tablero, Art. 6 FIDE (p. ej. 40/2h+1h, 40/90m:30m)
sobre-challenge--increment = Tiempo añadido tras cada jugada (p. ej. 1d, 30s)
sobre-challenge--session =
    Con --classical: cuánto dura una sesión de juego (p. ej. 5h). Quien aplaza antes de su
    final se considera que selló al final (Apéndice A1b FIDE)
sobre-challenge--chess960 =
    Una posición inicial de Chess960, sorteada limpiamente por los dos nodos (Apéndice F FIDE)
sobre-challenge--fen = Empieza en esta posición (FEN)
sobre-challenge--timekeeper =
    Un cronometrador que ambos jugadores aceptan (id o alias; normalmente el buzón del club).
    Repítalo para más. Cada jugada cuenta entonces cuando el cronometrador la recibió, para
    ambos jugadores, estén o no conectados (docs/time.md)
sobre-challenge--arbiter =
    El árbitro que puede guardar sus jugadas selladas y abrirlas si usted no está (Apéndices
    A3 y A9 FIDE): un id o alias que ambos jugadores aceptan (por omisión: su ajuste "arbiter")
sobre-challenge--edition = El texto de las Leyes FIDE con el que se juzga la partida
sobre-challenge--lateness =
    Cuánto puede retrasarse un jugador en la reanudación (Apéndice A10 FIDE; 1h por omisión)
sobre-challenge--notice =
    El aviso mínimo de una reanudación, desde que la jugada sellada llegó al rival (Apéndice
    A2.7 FIDE; 10m por omisión)
sobre-challenge--adjournable = Permite aplazar esta partida por correspondencia con una jugada sellada
sobre-challenge--no_draw_before = Sin tablas de mutuo acuerdo antes de esta jugada (9.1a FIDE)
sobre-challenge--json = Imprime la nueva partida como un objeto JSON

sobre-accept =
    Acepta un reto recibido (`sobre games` los muestra como "le reta"). La partida empieza;
    los colores y una posición de Chess960 sorteada se deciden limpiamente entre los dos nodos
    .long =
        Acepta un reto recibido (`sobre games` los muestra como "le reta"). La partida empieza;
        los colores y una posición de Chess960 sorteada se deciden limpiamente entre los dos
        nodos.

        Si el nodo del retador no abre la moneda limpia dentro del plazo (un día, o el tiempo
        de la partida para una jugada si es menor), su nodo la resuelve por omisión (FIDE F1,
        sin un último en revelar que pudiera retener un sorteo que no le gusta): usted recibe
        el color y la posición que pida aquí (si no, "coin_colour" en HOME/config.json; si no,
        blancas y una posición al azar). Lo que pide se queda en su nodo.
sobre-accept--game = { -partida }
sobre-accept--colour =
    El color que toma si el retador nunca abre la moneda (solo con colores al azar)
sobre-accept--position =
    La posición inicial de Chess960 (0..959) que toma si el retador nunca abre la moneda (solo
    con una posición sorteada; 518 es la posición normal)
sobre-decline = Rechaza un reto recibido, diciendo por qué si quiere
sobre-decline--game = { -partida }
sobre-decline--reason = Un motivo que se envía al retador
sobre-abort =
    Anula una partida sin resultado: retira un reto, o anula antes de las jugadas tras las
    cuales las reglas ya no lo permiten (si no, el nodo lo rechaza)
    .long =
        Anula una partida sin resultado: retira un reto, o anula antes de las jugadas tras las
        cuales las reglas ya no lo permiten (si no, el nodo lo rechaza).

        En un terminal se le pregunta antes (--yes se salta la pregunta; a un script, cuya
        entrada estándar no es un terminal, nunca se le pregunta). Si responde que no, no se
        envía nada y la orden sale con 1.
sobre-abort--game = { -partida }

sobre-games =
    Lista sus partidas, las más urgentes primero: aquellas en que le toca jugar (`*`), luego
    los retos que esperan su respuesta, luego el resto por tiempo restante
    .long =
        Lista sus partidas, las más urgentes primero: aquellas en que le toca jugar (`*`), luego
        los retos que esperan su respuesta, luego el resto por tiempo restante.

        Columnas: PARTIDA (los 8 primeros caracteres del id; cualquier prefijo único sirve como
        PARTIDA en las demás órdenes), RIVAL (su alias, si no el nombre que firmó, si no un id
        corto), COLOR (el suyo), JUGADA (número de jugada), ÚLTIMA (última jugada), ESTADO,
        TIEMPO (del jugador al que le toca), y NOTAS cuando una partida pide su atención: una
        oferta de tablas en pie (suya o del rival), lo que puede reclamar ya (la victoria por
        tiempo, 6.9; tablas por repetición o cincuenta jugadas, 9.2/9.3; la victoria cuando
        el rival llega a la reanudación más tarde del límite, A10), el permiso del
        rival, líneas de chat sin leer (leídas: las que imprimió `sobre show` o
        `sobre show --chat`), y cuándo se reanuda una partida aplazada.

        Las partidas terminadas y anuladas se listan durante 7 días tras su fin; --all las
        lista todas, --finished solo esas, --league solo las de una liga.

        Con --json, el objeto del nodo: `games`, una lista de (`game`, `opponent`,
        `my_color`, `status`, `result`, `move_number`, `last_move`, `my_move`,
        `incoming_challenge`, `ms_to_deadline`, `time_control`, y cuando corresponden
        `opponent_name`, `draw_offer`, `claimable`, `opponent_leave_until_ms`,
        `opponent_chat_lines`, `resume_at_ms`, `ended_ms`, `league`), filtrada como la tabla.
sobre-games--json = { -json }
sobre-show =
    Muestra una partida: el tablero desde su lado, las jugadas, a quién le toca, los relojes,
    una oferta de tablas pendiente, el sobre de la jugada secreta y el resultado
    .long =
        Muestra una partida: el tablero desde su lado, las jugadas, a quién le toca, los
        relojes, una oferta de tablas pendiente, el sobre de la jugada secreta y el resultado.

        PARTIDA es cualquier prefijo único del id de la partida (`sobre games` los lista). Con
        --json, la vista completa del nodo como un objeto: `game`, `white`, `black`,
        `my_color`, `fen`, `start_fen`, `moves` (UCI), `san`, `last_move`, `status`, `result`,
        `termination`, `turn`, `my_move`, `time_control`, `clocks`, `draw_offer`, `envelope`,
        `claims`, `chat`, y más.
sobre-show--game = { -partida }
sobre-show--json = Imprime la vista del nodo de la partida como un objeto JSON
sobre-show--flip = Dibuja el tablero desde el otro lado
sobre-show--ascii = Letras en vez de figuras Unicode
sobre-show--notation =
    Notación de las jugadas: en, es, figurine, uci, iccf (por omisión: `notation` en
    HOME/config.json; si no, en)
sobre-move =
    Juega una jugada en una partida en que le toca
    .long =
        Juega una jugada en una partida en que le toca.

        Cualquier notación: algebraica inglesa o española (`Nf3`, `Cf3`, `O-O`, `exd8=Q`),
        coordenadas (`g1f3`, `e7e8q`) o números ICCF (`7163`). La algebraica se lee en las
        letras en que escribe (--notation, o "notation" en HOME/config.json): `Rd1` es una
        jugada de torre en inglés y de rey en español. La jugada se comprueba, se firma, se
        guarda y solo entonces se informa; la entrega al rival sigue en segundo plano hasta que
        la confirma (vea `sobre node status`).

        Con --dry-run la jugada se lee y se comprueba igual y se muestra la posición tras ella
        (tablero y FEN); no se firma, guarda ni envía nada.
sobre-move--game = { -partida }
sobre-move--mv = La jugada
sobre-move--notation = { -notacion-jugada }
sobre-draw =
    Ofrece tablas, o acepta o rechaza la oferta de su rival (FIDE 9.1)
    .long =
        Ofrece tablas, o acepta o rechaza la oferta de su rival (FIDE 9.1).

        Una oferta vale hasta que el rival responde o juega; lo normal es ofrecer junto con su
        jugada (juéguela primero y luego ofrezca). Aceptar termina la partida: en un terminal
        se le pregunta antes (--yes se salta la pregunta; a un script nunca se le pregunta).
sobre-draw--action = Qué hacer
sobre-draw--game = { -partida }
sobre-claim =
    Reclama un resultado: tablas por triple repetición (FIDE 9.2) o por la regla de las
    cincuenta jugadas (9.3), la victoria por tiempo (6.9), una posición muerta (9.6), la
    victoria porque el rival llegó tarde a la reanudación de una partida aplazada (A10), o
    tablas en un final a caída de bandera (10.2: `quickplay`, con menos de dos minutos en el
    reloj; las decide el árbitro acordado de la partida con `sobre arbiter rule`, y los relojes
    quedan parados hasta entonces)
    .long =
        Reclama un resultado: tablas por triple repetición (FIDE 9.2) o por la regla de las
        cincuenta jugadas (9.3), la victoria por tiempo (6.9), una posición muerta (9.6), la
        victoria porque el rival llegó tarde a la reanudación de una partida aplazada (A10), o
        tablas en un final a caída de bandera (10.2: `quickplay`, con menos de dos minutos en el
        reloj; las decide el árbitro acordado de la partida con `sobre arbiter rule`, y los
        relojes quedan parados hasta entonces).

        Para 9.2 y 9.3, --move reclama con la jugada que piensa hacer (no se juega si la
        reclamación es correcta; se juega si es incorrecta). Cada nodo comprueba la
        reclamación con las mismas reglas; una reclamación incorrecta queda registrada como tal.
sobre-claim--game = { -partida }
sobre-claim--reason = Qué reclama
sobre-claim--intended =
    La jugada que piensa hacer, para una reclamación de triple repetición o de cincuenta jugadas
sobre-claim--notation = { -notacion-jugada }
sobre-resign =
    Abandona la partida (FIDE 5.1b). Definitivo: el abandono firmado se envía a su rival
    .long =
        Abandona la partida (FIDE 5.1b). Definitivo: el abandono firmado se envía a su rival.

        En un terminal se le pregunta antes (--yes se salta la pregunta; a un script, cuya
        entrada estándar no es un terminal, nunca se le pregunta). Si responde que no, no se
        envía nada y la orden sale con 1.
sobre-resign--game = { -partida }
sobre-adjourn =
    Aplaza una partida sellando su jugada (Apéndice A1–A2 FIDE): solo sella el jugador al que
    le toca
    .long =
        Aplaza una partida sellando su jugada (Apéndice A1–A2 FIDE): solo sella el jugador al
        que le toca.

        La jugada queda comprometida tal como se escribe, en las letras en que escribe
        (--notation; se firman en el sello, así que `Rd2` sellada en español se abre como la
        jugada del rey), y sigue secreta en su nodo hasta la reanudación; los relojes se
        paran. Una jugada secreta ambigua, ilegal o ininteligible pierde la partida al abrirse
        (A8), así que el nodo se niega a sellarla salvo con --force.

        --resume-at (obligatorio, A2.7) es un plazo desde ahora (`+2d`, `+36h`), una hora con
        su desfase (`2026-12-01T18:00:00Z`, `2026-12-01T18:00+01:00`), una hora local con el
        nombre de su zona (`"2026-12-01 18:00 Europe/Madrid"`), o una hora local sola, en la
        zona de este ordenador (`"2026-12-01 18:00"`). En la reanudación los dos jugadores
        ejecutan `sobre resume PARTIDA`: el sobre se abre cuando el que responde está presente
        y ha llegado la hora (o enseguida si están los dos); desde la hora acordada corre el
        reloj del que responde si está ausente (A9b).

        El árbitro guarda el sobre (A3): con --arbiter (o por omisión el organizador de la
        liga, si no "arbiter" en HOME/config.json) la apertura queda en depósito con ese
        jugador, cifrada con su clave, y su nodo abre el sobre en la reanudación si usted está
        ausente (A9) o perdió la apertura (A11). Solo puede abrir su verdadera jugada secreta,
        y solo cuando el Apéndice A lo permite. Sin árbitro, perder la apertura pierde la
        partida (A8, A10).

        En la reanudación, si el que selló está ausente y su sobre se ha abierto, el que
        responde puede sellar su respuesta en un segundo sobre en vez de jugarla (A9c): la
        misma orden sin --resume-at. Entonces corre el reloj del que selló, y la respuesta se
        abre cuando llega.
sobre-adjourn--game = { -partida }
sobre-adjourn--seal = La jugada que se sella, en cualquier notación
sobre-adjourn--resume_at =
    Cuándo se reanuda la partida (A2.7: obligatorio, salvo para una respuesta en un segundo
    sobre, A9c, que conserva la del aplazamiento). Antes, el sobre solo se abre si los dos
    jugadores anuncian que están presentes (`sobre resume PARTIDA`)
sobre-adjourn--place = Dónde se reanuda la partida
sobre-adjourn--force = Sella la jugada aunque pierda según A8
sobre-adjourn--arbiter =
    Quién guarda el sobre (A3): un alias o un id de jugador, ninguno de los dos jugadores. Por
    omisión, el organizador de una partida de liga; si no, "arbiter" en HOME/config.json
sobre-adjourn--no_arbiter =
    No deja la apertura en depósito con nadie, ni siquiera con el organizador de la liga
sobre-adjourn--notation = { -notacion-jugada }
sobre-resume =
    Anuncia que está presente para reanudar una partida aplazada (Apéndice A7, A9 FIDE)
    .long =
        Anuncia que está presente para reanudar una partida aplazada (Apéndice A7, A9 FIDE).

        Cuando los dos jugadores están presentes, el nodo del que selló abre el sobre: la
        jugada secreta se revela, se comprueba (A8) y se juega, y los relojes vuelven a correr.
sobre-resume--game = { -partida }
sobre-envelope =
    Muestra el sobre de una partida aplazada, como lo enumera el Apéndice A2 FIDE: la posición
    antes de la jugada secreta, el tiempo usado por cada jugador, quién selló, el número de
    jugada, una oferta de tablas pendiente, cuándo y dónde se reanuda, y el árbitro que lo
    guarda (A3). La jugada secreta sigue secreta hasta la reanudación
    .long =
        Muestra el sobre de una partida aplazada, como lo enumera el Apéndice A2 FIDE: la
        posición antes de la jugada secreta, el tiempo usado por cada jugador, quién selló, el
        número de jugada, una oferta de tablas pendiente, cuándo y dónde se reanuda, y el
        árbitro que lo guarda (A3). La jugada secreta sigue secreta hasta la reanudación.

        Con --json, un objeto: `game`, `status`, `envelope` (null si no hay; `sealer`,
        `sealed_at_ms`, `move_number`, `fen_before`, `time_used_ms`, `draw_offer_by`,
        `resume_at_ms`, `place`, `opened` (null, o la jugada tal como se escribió una vez
        abierta), `commitment`, `letters`, `arbiter` (null, o el jugador que guarda la apertura
        en depósito), `opened_by_arbiter`).
sobre-envelope--game = { -partida }
sobre-envelope--json = { -json }
sobre-envelope-open =
    Como árbitro que guarda un sobre (A3), lo abre: la jugada secreta, leída en memoria del
    depósito, se firma y se juega como jugada del que selló (A9)
    .long =
        Como árbitro que guarda un sobre (A3), lo abre: la jugada secreta, leída en memoria del
        depósito, se firma y se juega como jugada del que selló (A9).

        Se rechaza antes de que el Apéndice A permita abrir el sobre (la reanudación acordada
        con el que responde presente; antes, solo si los dos jugadores están presentes, A2.7,
        A7) y cuando este nodo no es el árbitro del sobre. El nodo también lo abre por sí mismo
        en la reanudación.
sobre-envelope-open--game = { -partida }
sobre-envelope-open--json = Imprime la partida como un objeto JSON (como `show --json`)
sobre-envelope-lost =
    Como el que selló, declara que perdió la apertura de su jugada secreta (A11): si un
    árbitro la guarda (su nodo abre el sobre en la reanudación; no se pierde nada) o, sin
    árbitro, qué queda: la partida solo sigue con la jugada secreta, así que abandone (A6) o
    pierda por la reclamación del que responde tras el límite de retraso (A8, A10)
    .long =
        Como el que selló, declara que perdió la apertura de su jugada secreta (A11): si un
        árbitro la guarda (su nodo abre el sobre en la reanudación; no se pierde nada) o, sin
        árbitro, qué queda: la partida solo sigue con la jugada secreta, así que abandone (A6) o
        pierda por la reclamación del que responde tras el límite de retraso (A8, A10).

        Con --json, un objeto: `game`, `status`, `result`, `opening_held`, `arbiter`,
        `binding`, `resume_at_ms`, `resigned`, `advice`.
sobre-envelope-lost--game = { -partida }
sobre-envelope-lost--resign = Abandona ahora (A6), cuando ningún árbitro guarda la apertura
sobre-envelope-lost--json = { -json }
sobre-envelope-declare =
    Como el que selló y perdió la apertura de su jugada secreta, declara la jugada que selló
    (A11.1): se lee como `sobre move` lee una jugada, en la posición en que se selló el sobre
    .long =
        Como el que selló y perdió la apertura de su jugada secreta, declara la jugada que selló
        (A11.1): se lee como `sobre move` lee una jugada, en la posición en que se selló el
        sobre.

        No se juega nada hasta que su rival (o el árbitro acordado) la acepte con `sobre
        envelope accept-declared`; entonces la partida sigue con ella como si se hubiera abierto
        el sobre. Una jugada secreta se declara una sola vez.
sobre-envelope-declare--game = { -partida }
sobre-envelope-declare--mv = La jugada que selló
sobre-envelope-declare--notation = { -notacion-jugada }
sobre-envelope-declare--json = { -json-escritura }
sobre-envelope-accept-declared =
    Como el que responde, o como el árbitro acordado de la partida, acepta la jugada que
    declaró el que selló (A11.1): se juega como jugada del que selló, como lo haría la
    apertura del sobre
    .long =
        Como el que responde, o como el árbitro acordado de la partida, acepta la jugada que
        declaró el que selló (A11.1): se juega como jugada del que selló, como lo haría la
        apertura del sobre.

        Se rechaza antes de que el sobre pudiera abrirse (la reanudación acordada; antes, solo
        con los dos jugadores presentes, A2.7, A7) y cuando ninguna jugada declarada espera
        aceptación.
sobre-envelope-accept-declared--game = { -partida }
sobre-envelope-accept-declared--json = { -json-escritura }
sobre-envelope-annul =
    Anula una partida aplazada cuya jugada secreta se perdió y cuya posición no puede
    restablecerse (A11.2): se jugará una nueva en su lugar. El árbitro acordado la anula
    solo; la anulación de un jugador es su mitad de un acuerdo, y la partida queda anulada
    cuando los dos jugadores han firmado la suya
    .long =
        Anula una partida aplazada cuya jugada secreta se perdió y cuya posición no puede
        restablecerse (A11.2): se jugará una nueva en su lugar. El árbitro acordado la anula
        solo; la anulación de un jugador es su mitad de un acuerdo, y la partida queda anulada
        cuando los dos jugadores han firmado la suya.

        En un terminal se le pregunta antes (--yes se salta la pregunta; a un script, cuya
        entrada estándar no es un terminal, nunca se le pregunta). Si responde que no, no se
        envía nada y la orden sale con 1.
sobre-envelope-annul--game = { -partida }
sobre-envelope-annul--yes = { -sin-pregunta }
sobre-envelope-annul--json = { -json-escritura }

sobre-conditional =
    Jugadas condicionales ("si juega Cf6, juego e5"): ahorran días en las partidas por
    correspondencia
    .long =
        Jugadas condicionales ("si juega Cf6, juego e5"): ahorran días en las partidas por
        correspondencia.

          sobre conditional PARTIDA add Nf6 e5 Nd5 c4   su jugada, su respuesta, su jugada, su respuesta
          sobre conditional PARTIDA list
          sobre conditional PARTIDA clear

        Cuando el rival juega la primera jugada de una línea, su nodo juega su respuesta en el
        acto y guarda el resto de la línea; una línea que ya no encaja se descarta. Las jugadas
        se comprueban al añadirlas. Con --json, un objeto: `game`, `lines` (listas de jugadas)
        tras la acción.
sobre-conditional--game = { -partida }
sobre-conditional--action = Qué hacer
sobre-conditional--line =
    Para `add`: la línea, empezando por la jugada del rival (entre comillas o como palabras
    separadas)
sobre-conditional--json =
    Imprime como un objeto JSON las líneas condicionales de la partida tras la acción
sobre-conditional--notation = { -notacion-jugada }
sobre-chat =
    Envía una línea de charla a su rival en una partida (firmada, guardada con la partida; como
    mucho 2000 bytes)
sobre-chat--game = { -partida }
sobre-chat--text = El texto (entre comillas; varias palabras se unen con espacios)
sobre-coin =
    La moneda limpia de una partida con colores al azar o una posición de Chess960 sorteada
sobre-coin-default =
    Resuelve la moneda usted mismo cuando el retador no la abrió dentro del plazo (un día tras
    su aceptación, o el tiempo de la partida para una jugada si es menor): elige el color que
    toma y la posición de Chess960, como si el retador hubiera perdido el sorteo (F1)
    .long =
        Resuelve la moneda usted mismo cuando el retador no la abrió dentro del plazo (un día
        tras su aceptación, o el tiempo de la partida para una jugada si es menor): elige el
        color que toma y la posición de Chess960, como si el retador hubiera perdido el sorteo
        (F1).

        Su nodo lo hace por sí mismo una vez pasado el plazo, con lo que pidió en
        `sobre accept` (salvo que corra con --manual-coin-default); antes del plazo se
        rechaza, diciendo cuándo. Sin --colour/--position: lo que pidió al aceptar; si no,
        blancas y una posición al azar.
sobre-coin-default--game = { -partida }
sobre-coin-default--colour = El color que toma (solo con colores al azar)
sobre-coin-default--position =
    La posición inicial de Chess960, 0..959 (solo con una posición sorteada)
sobre-coin-default--json =
    Imprime la partida como un objeto JSON (como `sobre show --json`)
sobre-watch =
    Imprime los eventos según ocurren (jugadas, ofertas, reclamaciones, charla, acuses…), en
    todas las partidas o en una, hasta Ctrl-C o hasta que el nodo se detiene
    .long =
        Imprime los eventos según ocurren (jugadas, ofertas, reclamaciones, charla, acuses…),
        en todas las partidas o en una, hasta Ctrl-C o hasta que el nodo se detiene.

        Una línea por evento: hora (UTC), partida (8 caracteres), qué pasó y sus detalles. Con
        --json, cada evento tal como lo publica el nodo, un objeto JSON por línea (`game`,
        `event`, `time_ms`, y campos según el evento); `{"{"}"lagged": N{"}"}` significa que
        se descartaron N eventos porque este observador se quedó atrás (`sobre games` tiene el
        estado actual).
sobre-watch--game = Solo esta partida (un id o un prefijo único de él)
sobre-watch--json = Un objeto JSON por línea
sobre-leave =
    Toma un permiso (unas vacaciones) en todas sus partidas activas: sus relojes se paran
    mientras dura, dentro del cupo anual (ICCF: 45 días)
sobre-leave-start = Empieza un permiso ahora, de N días (7 por omisión)
sobre-leave-start--days = Cuántos días
sobre-leave-end = Termina ahora el permiso en curso
sobre-export =
    Exporta una partida: como PGN (para cualquier programa de ajedrez), o como un archivo de
    todos sus eventos firmados (cualquiera puede comprobarlo por su cuenta: las firmas, las
    cadenas, cada jugada)
sobre-export--game = { -partida }
sobre-export--pgn = Exporta PGN
sobre-export--archive = Exporta el archivo de eventos firmados
sobre-export--output = Escribe en este fichero en vez de en la salida estándar

sobre-league =
    Ligas a una o dos vueltas (tablas de Berger) jugadas por la red: crear, inscribirse,
    emparejamientos, clasificación con desempates, cuadro de resultados, decisiones del
    árbitro, exportación y verificación sin conexión
sobre-league-create =
    Crea una liga (usted es su organizador; ejecute su nodo con --mailbox para que los
    jugadores nunca necesiten estar conectados a la vez). Los jugadores se numeran en el orden
    dado, que es su número en las tablas de Berger (FIDE C.05 Anexo 1). Para jugar en ella,
    inclúyase como jugador y nombre un árbitro adjunto (--deputy) que decida sus partidas
    .long =
        Crea una liga (usted es su organizador; ejecute su nodo con --mailbox para que los
        jugadores nunca necesiten estar conectados a la vez). Los jugadores se numeran en el
        orden dado, que es su número en las tablas de Berger (FIDE C.05 Anexo 1). Para jugar
        en ella, inclúyase como jugador y nombre un árbitro adjunto (--deputy) que decida sus
        partidas.

        Ejemplos:
          sobre league create "Liga de otoño" --player ana --player bruno --player carmen
              --player diego --per-move 3d --round-days 14
          sobre league create "Liga" --player me --player ana --player bruno --deputy carlos
sobre-league-create--name = El nombre de la liga
sobre-league-create--players =
    Un jugador (id o alias; `me` para usted), en el orden de Berger; repítalo para cada
    jugador (de 3 a 64)
sobre-league-create--names =
    Nombres visibles, en el mismo orden (por omisión: los alias de sus contactos; si no, los
    nombres que los jugadores firmaron en sus perfiles; si no, ids cortos)
sobre-league-create--double =
    Una liga a doble vuelta (colores invertidos en la segunda vuelta)
sobre-league-create--per_move = Tiempo de correspondencia por jugada (3d por omisión)
sobre-league-create--time = Jugadas de correspondencia en un periodo (p. ej. 10/50d)
sobre-league-create--round_days =
    Días entre la apertura de una ronda y la siguiente (0: todas las rondas se abren al empezar)
sobre-league-create--start_deadline =
    Cuánto tiempo tras abrirse una ronda deben haber empezado sus partidas (p. ej. 7d; FIDE
    6.6): un emparejamiento sin empezar para entonces lo pierde por incomparecencia quien
    no se presentó (ambos: 0-0). Por omisión, sin plazo
sobre-league-create--start =
    Cuándo se abre la ronda 1: una fecha (2026-12-01) o una hora RFC 3339 (por omisión,
    ahora). Hasta entonces caben inscripciones tardías y sustituciones
sobre-league-join =
    Se inscribe en una liga de la que es jugador: acepta sus partidas por adelantado; luego su
    nodo reta (con blancas) o acepta (con negras) cada partida cuando se abre su ronda
sobre-league-join--league = { -liga }
sobre-league-list = Las ligas que conoce su nodo
sobre-league-show = Las condiciones, los jugadores y la marcha de una liga
sobre-league-show--league = { -liga }
sobre-league-pairings =
    Los emparejamientos (tablas de Berger), con el estado de cada partida
sobre-league-pairings--league = { -liga }
sobre-league-pairings--round = Solo esta ronda
sobre-league-standings =
    La clasificación con desempates (Sonneborn-Berger, victorias, resultado particular),
    calculada solo con las partidas cuyos registros firmados se verifican (Art. 11 FIDE: 1,
    ½, 0)
sobre-league-standings--league = { -liga }
sobre-league-crosstable =
    El cuadro de resultados; --html escribe una página imprimible, --csv una hoja de cálculo
sobre-league-crosstable--league = { -liga }
sobre-league-crosstable--html = Escribe una página HTML imprimible
sobre-league-crosstable--csv = Escribe CSV
sobre-league-crosstable--lang =
    El idioma de la página HTML: es o en (por omisión, el de la interfaz: "language" en
    HOME/config.json, si no LC_ALL, LC_MESSAGES o LANG)
sobre-league-verify =
    Recalcula todo a partir de las partidas firmadas e informa de cada partida que no se
    verifica o no pertenece a la liga (termina con 1 si hay alguna)
sobre-league-verify--league = { -liga }
sobre-league-export =
    Escribe el archivo de la liga (definición, inscripciones y los eventos firmados de cada
    partida) para que cualquiera lo verifique sin conexión
sobre-league-export--league = Id de la liga (o sus primeras cifras) o nombre
sobre-league-export--output = Escribe aquí en vez de en la salida estándar
sobre-league-export--pgn =
    Cada partida que cuenta, como un fichero PGN (nombres, Event, Round, Result), en vez del
    archivo firmado
sobre-league-decide =
    Firma una decisión arbitral como organizador de la liga (o como su árbitro adjunto, para
    las partidas del organizador): una incomparecencia, una retirada, una adjudicación, la
    regla de retirada, el orden de los desempates, o antes de la ronda 1 una inscripción
    tardía o una sustitución. Cada nodo la comprueba; ninguna anula una partida terminada
    .long =
        Firma una decisión arbitral como organizador de la liga (o como su árbitro adjunto,
        para las partidas del organizador): una incomparecencia, una retirada, una
        adjudicación, la regla de retirada, el orden de los desempates, o antes de la ronda 1
        una inscripción tardía o una sustitución. Cada nodo la comprueba; ninguna anula una
        partida terminada.

        Ejemplos:
          sobre league decide LIGA forfeit --round 3 --player ana
          sobre league decide LIGA withdraw --player bruno
          sobre league decide LIGA adjudicate --round 5 --player ana --result 1/2-1/2
              --reason "tablas muertas al cierre de la temporada"
          sobre league decide LIGA settings --withdrawal forfeit-remaining
          sobre league decide LIGA tie-breaks --order before-fide
          sobre league decide LIGA enter --player elena --name "Elena"
          sobre league decide LIGA replace --replaces diego --player fermin
sobre-league-decide--league = Id de la liga (o sus primeras cifras) o nombre
sobre-league-decide--round = La ronda del emparejamiento (forfeit, double-forfeit, adjudicate)
sobre-league-decide--player =
    El ganador de una incomparecencia, el jugador que se retira, cualquiera de los dos
    jugadores de una partida adjudicada, o el jugador que se inscribe o sustituye a otro (id
    o alias)
sobre-league-decide--result = El resultado adjudicado: 1-0, 1/2-1/2 o 0-1
sobre-league-decide--reason =
    Por qué (obligatorio en una adjudicación, como mucho 200 caracteres)
sobre-league-decide--withdrawal =
    La regla de retirada (settings): fide o forfeit-remaining
sobre-league-decide--order =
    El orden de desempate (tie-breaks): fide (resultado particular, victorias,
    Sonneborn-Berger, Koya: el de omisión), before-fide (Sonneborn-Berger, victorias,
    resultado particular), o una lista separada por comas de de, wins, sb, koya

sobre-demo =
    Arranca dos nodos reales en un directorio temporal sobre loopback y juega una partida
    completa entre ellos: una oferta de tablas rechazada, un aplazamiento con jugada secreta,
    la reanudación y la revelación, y un final decisivo; imprime cada paso y el PGN final
sobre-demo--keep =
    Conserva los directorios temporales (e imprime dónde están) en vez de borrarlos
sobre-perft =
    Cuenta las secuencias de jugadas legales de PROFUNDIDAD medias jugadas desde una posición
    (perft)
    .long =
        Cuenta las secuencias de jugadas legales de PROFUNDIDAD medias jugadas desde una
        posición (perft).

        La última línea impresa es el número de nodos. Con --divide, antes va una línea por
        cada primera jugada legal (`e2e4 20`).
sobre-perft--fen = La posición en FEN, X-FEN o Shredder-FEN (o `startpos`)
sobre-perft--depth = Profundidad en medias jugadas
sobre-perft--divide = Imprime la cuenta bajo cada primera jugada legal
sobre-perft--chess960 = Lee los derechos de enroque como Chess960 (Apéndice F FIDE)
sobre-position =
    Muestra una posición: el tablero, a quién le toca, las jugadas legales, jaque, mate,
    ahogado y material insuficiente (FIDE 5.1, 5.2, 9.6)
    .long =
        Muestra una posición: el tablero, a quién le toca, las jugadas legales, jaque, mate,
        ahogado y material insuficiente (FIDE 5.1, 5.2, 9.6).

        Con --json, un objeto JSON: `fen`, `turn` ("white"/"black"), `legal_moves` (UCI),
        `check`, `checkmate`, `stalemate`, `insufficient_material`, y más.
sobre-position--fen = La posición en FEN, X-FEN o Shredder-FEN (o `startpos`)
sobre-position--chess960 = Lee los derechos de enroque como Chess960 (Apéndice F FIDE)
sobre-position--json = Imprime un objeto JSON en vez de un tablero
sobre-position--ascii = Letras en vez de figuras Unicode
sobre-position--flip = Dibuja el tablero desde el lado de las negras
sobre-position--notation = Notación de la lista de jugadas legales: en, es, figurine, uci, iccf
sobre-pgn = Lee y escribe ficheros PGN
sobre-pgn-check =
    Reproduce cada partida de uno o más ficheros PGN, comprobando cada jugada (algebraica
    inglesa o española, figuras, coordenadas), e informa de la primera jugada imposible de
    cada partida mala
    .long =
        Reproduce cada partida de uno o más ficheros PGN, comprobando cada jugada (algebraica
        inglesa o española, figuras, coordenadas), e informa de la primera jugada imposible de
        cada partida mala.

        Termina con 1 si falla alguna partida. Con --json, un objeto por partida y línea:
        `file`, `index` (desde 0, por fichero), `ok`, `plies`, `final_fen`, y si no es ok
        `error` (`kind`, `ply`, `move`, `message`); `kind` es `illegal`, `null_move`,
        `bad_start` o `not_text`.

        Una jugada nula (`Z0`, `--`) en la línea principal se señala como tal; dentro de una
        variante se acepta (las variantes no se reproducen).
sobre-pgn-check--files = Ficheros PGN (`-` para la entrada estándar)
sobre-pgn-check--json = Un objeto JSON por partida y línea
sobre-pgn-check--quiet = Sin barra de progreso
sobre-pgn-convert =
    Reescribe las partidas de un fichero PGN con sus jugadas en otra notación (PGN canónico en
    la salida estándar)
sobre-pgn-convert--file = El fichero PGN (`-` para la entrada estándar)
sobre-pgn-convert--notation = Notación de la salida: en, es, figurine, uci, iccf
sobre-pgn-convert--output = Escribe en este fichero en vez de en la salida estándar
sobre-verify =
    Verifica sin conexión el archivo de una partida: cada firma, las cadenas de hashes de las
    dos planillas y cada jugada según las Leyes del Ajedrez, tal como lo deciden los nodos de
    los jugadores. No hay que fiarse de nadie: ni de quien envía el fichero ni de los nodos
    de sobre
    .long =
        Verifica sin conexión el archivo de una partida: cada firma, las cadenas de hashes de
        las dos planillas y cada jugada según las Leyes del Ajedrez, tal como lo deciden los
        nodos de los jugadores. No hay que fiarse de nadie: ni de quien envía el fichero ni de
        los nodos de sobre.

        El archivo es el texto que escribe `sobre export PARTIDA --archive`: una línea
        `sobre-archive 1`, una línea `game <id>` y una línea `event <hex>` por evento firmado.

        Estado de salida: 0 si el archivo se verifica; 1 si se puede leer pero no se verifica
        (una firma mala, una cadena rota, una jugada ilegal, eventos de otra partida); 2 si el
        fichero no es un archivo o no se puede leer. Con --json el fallo también se imprime
        como `{"{"}"ok":false,"error":"…"{"}"}`.
sobre-verify--archive = El fichero del archivo (`-` para la entrada estándar)
sobre-verify--json =
    Imprime un objeto JSON: game, white, black, status, result ("1-0", "0-1", "1/2-1/2" o
    null), termination (un código como "checkmate", o null), fen, moves (UCI), plies, claims,
    equivocations (count, seqs), ok
sobre-verify--pgn =
    Imprime en su lugar la partida como PGN canónico (las horas firmadas como
    comentarios [%sobre-time])
sobre-invite =
    Imprime su invitación: una línea que dar a otro jugador (por correo, chat, en papel)
    .long =
        Imprime su invitación: una línea que dar a otro jugador (por correo, chat, en papel).

        Lleva su id de jugador, su nombre, las direcciones en que su nodo es alcanzable (las
        externas y, con el nodo en marcha, sus direcciones de escucha y retransmitidas; la de
        loopback solo si no hay otra) y los buzones y nodos de arranque guardados en
        HOME/node.toml, firmada con su clave. El otro jugador ejecuta `sobre connect 'LÍNEA'`
        (o `sobre contacts add NOMBRE 'LÍNEA'`). Haga una nueva cuando cambien sus direcciones.

        Con --json, un objeto: `invite`, `player_id`, `name`, `addresses`, `mailboxes`,
        `bootstrap`.
sobre-invite--json = { -json }
sobre-connect =
    Añade un jugador a partir de su invitación: su alias en sus contactos, sus direcciones
    recordadas, y su nodo le llama (ahora si está en marcha; si no, al arrancar)
sobre-connect--invite = La línea de invitación (`sobre:invite/…`), entre comillas
sobre-connect--alias =
    El alias que darle (por omisión, su nombre hecho alias: `Ana Núñez` → `ana-núñez`)
sobre-completions =
    Imprime el guion de completado para un shell en la salida estándar
    .long =
        Imprime el guion de completado para un shell en la salida estándar.

        Instálelo donde el shell busca los completados, p. ej.
        `sobre completions bash > ~/.local/share/bash-completion/completions/sobre`,
        `sobre completions zsh > ~/.zfunc/_sobre`,
        `sobre completions fish > ~/.config/fish/completions/sobre.fish`.
sobre-completions--shell =
    bash, zsh, fish, elvish o powershell (por omisión, el shell que nombra $SHELL)
sobre-man =
    Imprime la página de manual de sobre (roff) en la salida estándar, o escribe una página
    por suborden
    .long =
        Imprime la página de manual de sobre (roff) en la salida estándar, o escribe una página
        por suborden.

        `sobre man | man -l -` la lee enseguida; `sobre man --out ~/.local/share/man/man1`
        instala `sobre.1`, `sobre-challenge.1`, `sobre-league-create.1`, … para
        `man sobre-challenge`.
sobre-man--out =
    Escribe `sobre.1` y una página por suborden en este directorio (creado si falta) en vez de
    imprimir la página principal

## Los marcadores de los valores (`<PARTIDA>`, `--start <INICIO>`), por su nombre inglés.
value-ACTION = ACCIÓN
value-ALIAS = ALIAS
value-ARCHIVE = ARCHIVO
value-BOOL = BOOL
value-LIMIT = LÍMITE
value-CLUB = CLUB
value-COLOR = COLOR
value-COLOUR = COLOR
value-DEPTH = PROFUNDIDAD
value-EDITION = EDICIÓN
value-DIR = DIR
value-DURATION = DURACIÓN
value-FEN = FEN
value-FILE = FICHERO
value-FILES = FICHEROS
value-GAME = PARTIDA
value-ID = ID
value-INVITE = INVITACIÓN
value-KIND = TIPO
value-LANG = IDIOMA
value-LEAGUE = LIGA
value-MOVE = JUGADA
value-MOVES = JUGADAS
value-MOVES_DURATION = JUGADAS/DURACIÓN
value-MULTIADDR = MULTIADDR
value-N = N
value-NAME = NOMBRE
value-NOTATION = NOTACIÓN
value-ORDER = ORDEN
value-OUTPUT = SALIDA
value-PERIODS = PERIODOS
value-PLAYER = JUGADOR
value-PLAYER_ID_INVITE = ID_DE_JUGADOR|INVITACIÓN
value-REASON = MOTIVO
value-RESULT = RESULTADO
value-ROUND = RONDA
value-ROUND_DAYS = DÍAS
value-RUN_FLAGS = OPCIONES
value-SHELL = SHELL
value-START = INICIO
value-TAGS = ETIQUETAS
value-TEXT = TEXTO
value-TIME = HORA
value-WITHDRAWAL = RETIRADA

sobre-league-create--deputy =
    El árbitro adjunto (id o alias; no un jugador), que firma las decisiones sobre sus
    propias partidas: obligatorio si usted es uno de los jugadores
sobre-league-decide--replaces = El jugador sustituido (replace; id o alias)
sobre-league-decide--name =
    El nombre visible del jugador que se inscribe o sustituye a otro (por omisión, un id
    corto)
sobre-key =
    Su clave bajo una frase de paso: una copia de seguridad, o cómo pasar a un ordenador nuevo
    .long =
        Su clave bajo una frase de paso: una copia de seguridad, o cómo pasar a un ordenador
        nuevo.

        `export` escribe la clave cifrada (Argon2id y ChaCha20-Poly1305); `import` la pone en
        un directorio nuevo. Para mudarse: pare primero el nodo viejo (`sobre node stop`),
        luego exporte, copie, importe y arranque el nodo nuevo. Un nodo que encuentra otro
        nodo en marcha con la misma clave se niega a firmar nada (dos nodos de un jugador
        firmarían eventos gemelos y pondrían sus partidas en disputa).
sobre-key-export =
    Escribe su clave en ARCHIVO, cifrada con una frase de paso (se pide dos veces en el
    terminal)
sobre-key-export--file = El archivo que escribir (modo 0600)
sobre-key-export--force = Sustituye ARCHIVO si existe
sobre-key-export--passphrase_file =
    Lee la frase de paso de la primera línea de este archivo (para scripts)
sobre-key-export--passphrase_env =
    Lee la frase de paso de la variable de entorno SOBRE_PASSPHRASE (para scripts)
sobre-key-export--json = Imprime un objeto JSON: `player_id`, `file`
sobre-key-import =
    Restaura en este directorio una clave escrita por `sobre key export`
sobre-key-import--file = Un archivo escrito por `sobre key export`
sobre-key-import--force =
    Sustituye la clave que este directorio ya guarda (sus partidas se firmaron con ella:
    guarde antes una copia)
sobre-key-import--passphrase_file =
    Lee la frase de paso de la primera línea de este archivo (para scripts)
sobre-key-import--passphrase_env =
    Lee la frase de paso de la variable de entorno SOBRE_PASSPHRASE (para scripts)
sobre-key-import--json = Imprime un objeto JSON: `player_id`, `home`
sobre-accept--json = { -json-escritura }
sobre-decline--json = { -json-escritura }
sobre-abort--yes = { -sin-pregunta }
sobre-abort--json = { -json-escritura }
sobre-games--all = También las partidas que terminaron hace más de 7 días
sobre-games--finished = Solo las partidas terminadas y anuladas (por antiguas que sean)
sobre-games--league =
    Solo las partidas de esta liga (su id, un prefijo único de él, o su nombre)
sobre-show--chat =
    Imprime todo el chat de la partida (con la hora de cada línea) en vez de la partida
sobre-move--dry_run = Muestra la posición tras la jugada sin jugarla
sobre-move--ascii = Letras en vez de figuras Unicode (con --dry-run)
sobre-move--json = { -json-escritura }
sobre-draw--yes = { -sin-pregunta }
sobre-draw--json = { -json-escritura }
sobre-claim--json = { -json-escritura }
sobre-resign--yes = { -sin-pregunta }
sobre-resign--json = { -json-escritura }
sobre-adjourn--json = { -json-escritura }
sobre-resume--json = { -json-escritura }
sobre-chat--json = { -json-escritura }
sobre-leave-start--json = { -json-escritura }
sobre-leave-end--json = { -json-escritura }

sobre-reminders =
    Lista los recordatorios que ha lanzado el nodo, del más antiguo al más reciente: llegó una
    jugada, a su reloj le queda poco, el rival va con retraso y cabe una reclamación, el nodo
    reclama por sí mismo (`auto_claim`), se abrió una ronda de liga, una partida aplazada se
    reanuda pronto. Cada uno se lanza una sola vez, también tras reiniciar
    .long =
        Lista los recordatorios que ha lanzado el nodo, del más antiguo al más reciente: llegó
        una jugada, a su reloj le queda poco, el rival va con retraso y cabe una reclamación, el
        nodo reclama por sí mismo (`auto_claim`), se abrió una ronda de liga, una partida
        aplazada se reanuda pronto. Cada uno se lanza una sola vez, también tras reiniciar.

        Cuándo y cómo se entregan (una notificación de escritorio, una orden que recibe el
        recordatorio como JSON por su entrada estándar, un correo por su servidor SMTP) se
        configura en la tabla `[reminders]` de HOME/node.toml; `sobre watch` los muestra al
        lanzarse.

        Una línea cada uno: hora (UTC), partida (8 caracteres, `-` para una liga), clase y
        texto. Con --json, el objeto del nodo: `reminders`, una lista de (`key`, `game`,
        `time_ms`, `text`, `kind`, y los campos propios de cada clase).
sobre-reminders--limit = Como mucho estos, los más recientes
sobre-reminders--json = { -json }
sobre-arbiter = Lo que hace en una partida el árbitro que nombran sus condiciones
sobre-arbiter-rule =
    Como árbitro acordado de la partida, decide las tablas que un jugador reclamó en un final a
    caída de bandera (FIDE 10.2): `draw` (10.2a: el adversario no hace ningún esfuerzo para
    ganar, o no puede ganar, por medios normales), `postpone` (10.2b: la partida continúa, y
    puede declarar las tablas más tarde, incluso después de caer una bandera) o `reject`
    (10.2c: el adversario recibe dos minutos extra)
    .long =
        Como árbitro acordado de la partida, decide las tablas que un jugador reclamó en un
        final a caída de bandera (FIDE 10.2): `draw` (10.2a: el adversario no hace ningún
        esfuerzo para ganar, o no puede ganar, por medios normales), `postpone` (10.2b: la
        partida continúa, y puede declarar las tablas más tarde, incluso después de caer una
        bandera) o `reject` (10.2c: el adversario recibe dos minutos extra).

        Los relojes quedan parados desde la reclamación hasta su decisión. Su decisión es
        inapelable (10.2d).
sobre-arbiter-rule--game = { -partida }
sobre-arbiter-rule--ruling = Su decisión
sobre-arbiter-rule--claim = El id de la reclamación (o un prefijo único); por defecto, la que sigue pendiente
sobre-arbiter-rule--extra_time = Con `postpone`: da al adversario dos minutos extra (10.2b)
sobre-arbiter-rule--json = { -json-escritura }
value-RULING = DECISIÓN
value-CLAIM = RECLAMACIÓN
sobre-board =
    Abre el tablero en su navegador: sus partidas, el tablero para jugar, desafíos y ligas,
    servido por su nodo solo en esta máquina (127.0.0.1)
    .long =
        Abre el tablero en su navegador: sus partidas, el tablero para jugar, desafíos y ligas,
        servido por su nodo solo en esta máquina (127.0.0.1).

        Escribe una URL que abre el tablero una vez (la primera carga gasta su ficha y guarda
        en su lugar una cookie de sesión) e intenta abrirla en su navegador. El tablero se
        sirve hasta que el nodo se detiene; `board = true` en HOME/node.toml lo sirve desde el
        arranque, y `board_port` fija su puerto. Con --json, un objeto: `url`.
sobre-board--no_open = Solo escribe la URL; no abre ningún navegador
sobre-board--json = { -json }
