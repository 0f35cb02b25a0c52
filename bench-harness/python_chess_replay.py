#!/usr/bin/env python3
"""python-chess baseline: PGN read + full replay throughput (single thread).

Reference point for comparing sobre's Rust PGN/SAN replay speed.

Setup (reusable venv, outside the repo):
    python3 -m venv /work/pychess-venv && /work/pychess-venv/bin/pip install chess

Generate the corpus (deterministic: random.Random(seed), 10,000 random legal games,
each exactly N plies with N uniform in [40, 120]; a game that ends early by mate,
stalemate, insufficient material, 75-move rule or fivefold repetition is discarded and
regenerated, so every game has its target length) and time it:
    /work/pychess-venv/bin/python bench-harness/python_chess_replay.py \
        --generate --pgn /work/pychess_games.pgn --games 10000 --seed 1 --repeat 3

Timed section per run: open the file, then for every game chess.pgn.read_game()
(which itself parses and validates every SAN move) followed by a full replay of the
mainline on a fresh board (board.push for each move). moves/s = total plies / wall time.
"""
import argparse
import random
import sys
import time

import chess
import chess.pgn


def generate(path, games, seed, min_plies=40, max_plies=120):
    rng = random.Random(seed)
    total_plies = 0
    with open(path, "w", encoding="utf-8") as out:
        i = 0
        while i < games:
            target = rng.randint(min_plies, max_plies)
            board = chess.Board()
            ok = True
            for _ in range(target):
                if board.is_game_over():
                    ok = False
                    break
                board.push(rng.choice(list(board.legal_moves)))
            if not ok:
                continue  # ended before target length: regenerate (deterministically)
            i += 1
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "python-chess random game"
            game.headers["Site"] = "?"
            game.headers["Date"] = "????.??.??"
            game.headers["Round"] = str(i)
            game.headers["White"] = "random"
            game.headers["Black"] = "random"
            game.headers["Result"] = board.result() if board.is_game_over() else "*"
            game.headers["PlyCount"] = str(target)
            print(game, file=out, end="\n\n")
            total_plies += target
    return total_plies


def replay_file(path):
    games = 0
    plies = 0
    errors = 0
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                errors += 1
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
            games += 1
    return games, plies, errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", default="/work/pychess_games.pgn")
    ap.add_argument("--generate", action="store_true", help="(re)generate the PGN first")
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs; best and all are reported")
    args = ap.parse_args()

    if args.generate:
        t0 = time.perf_counter()
        total = generate(args.pgn, args.games, args.seed)
        print(f"generated {args.games} games, {total} plies -> {args.pgn} "
              f"in {time.perf_counter() - t0:.1f} s", flush=True)

    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}", flush=True)
    rates = []
    for run in range(args.repeat):
        t0 = time.perf_counter()
        games, plies, errors = replay_file(args.pgn)
        dt = time.perf_counter() - t0
        rates.append(plies / dt)
        print(f"run {run + 1}: {games} games, {plies} plies, {errors} games with errors, "
              f"{dt:.2f} s, {plies / dt:,.0f} moves/s, {games / dt:,.0f} games/s", flush=True)
    print(f"best {max(rates):,.0f} moves/s, median {sorted(rates)[len(rates) // 2]:,.0f} moves/s")


if __name__ == "__main__":
    main()
