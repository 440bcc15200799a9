// The Abstract Play engine's side of benchmarks/reference_engine.py.
//
// Usage (the Python script starts it; it is not meant to be run by hand):
//
//     node benchmarks/reference_engine.mjs BUNDLE LOCALES GAMES POSITIONS english|keys
//
// BUNDLE is the CommonJS bundle the Python script built from a gameslib
// checkout (it exports StawvsGame and addResource), LOCALES that checkout's
// locales/en folder, GAMES and POSITIONS the gzipped JSON-lines files of
// reference games and benchmark positions. With "english", i18next is set up
// with the checkout's English messages, as the Abstract Play host sets it up
// (addResource), so every message the engine words costs what it costs there;
// with "keys" it is left alone, and i18next.t answers each message's key.
//
// It then reads one JSON request a line on standard input and answers each
// with one JSON line on standard output, so that one warm process serves
// every round of the alternation:
//
//     {"op": "replay", "repeat": R}         -> {"us": [best µs of R replays, per game]}
//     {"op": "moves", "number": N, "repeat": R}
//                                           -> {"us": [best µs per call, per position]}
//     {"op": "finals"}                      -> {"finals": [{"state", "scores"} per game]}
//     {"op": "moves_lists"}                 -> {"moves": [[move, ...] per position]}
//
// A request that fails answers {"error": "..."}; end of input ends the process.

import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { gunzipSync } from "node:zlib";

const [bundlePath, localesDir, gamesPath, positionsPath, messages] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { StawvsGame, addResource } = require(resolve(bundlePath));

// (A checkout older than src/i18n-node.ts has no addResource: its messages stay keys.)
const english = messages === "english" && addResource !== undefined;
if (english) {
    const bundles = {};
    for (const ns of ["apgames", "apresults"]) {
        const path = join(localesDir, `${ns}.json`);
        if (existsSync(path)) {
            bundles[ns] = JSON.parse(readFileSync(path, "utf8"));
        }
    }
    addResource("en", undefined, { bundles });
}

const readJsonLines = (path) =>
    gunzipSync(readFileSync(path))
        .toString("utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line));

const games = readJsonLines(gamesPath);
const positions = readJsonLines(positionsPath).map((p) => new StawvsGame(p.state));

// A validated replay, as the host replays a game: load the first state, then
// move() each ply (move() validates every move before it plays it).
const replay = (game) => {
    const state = new StawvsGame(game.initial);
    for (const ply of game.plies) {
        state.move(ply.move);
    }
    return state;
};

const microseconds = (start) => Number(process.hrtime.bigint() - start) / 1e3;

const bestOf = (repeat, number, fn) => {
    let best = Infinity;
    for (let r = 0; r < repeat; r++) {
        const start = process.hrtime.bigint();
        for (let n = 0; n < number; n++) {
            fn();
        }
        best = Math.min(best, microseconds(start) / number);
    }
    return best;
};

const answer = (request) => {
    switch (request.op) {
        case "replay":
            return { us: games.map((g) => bestOf(request.repeat, 1, () => replay(g))) };
        case "moves":
            return { us: positions.map((p) => bestOf(request.repeat, request.number, () => p.moves())) };
        case "finals":
            return {
                finals: games.map((g) => {
                    const state = replay(g);
                    const scores = [];
                    for (let p = 1; p <= state.numplayers; p++) {
                        scores.push(state.getPlayerScore(p));
                    }
                    return { state: state.serialize(), scores };
                }),
            };
        case "moves_lists":
            return { moves: positions.map((p) => p.moves()) };
        default:
            throw new Error(`unknown request ${JSON.stringify(request.op)}`);
    }
};

console.log(
    JSON.stringify({ ready: true, version: StawvsGame.gameinfo.version, english }),
);
for await (const line of createInterface({ input: process.stdin })) {
    let reply;
    try {
        reply = answer(JSON.parse(line));
    } catch (error) {
        reply = { error: String(error && error.stack ? error.stack : error) };
    }
    console.log(JSON.stringify(reply));
}
