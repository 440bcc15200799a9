#!/usr/bin/env node
// Plays one complete game of Stawvs through `python -m stawvs_ap serve`, the
// engine's JSON-RPC 2.0 service, and prints the winner. Player 1 picks its
// moves here from the legal ones (a seeded generator); every other seat is the
// engine's own bot, asked with `bot_move` (a bot spec and a budget). Plain
// Node >= 18, no dependencies.
//
//   node examples/node/play.mjs [players] [seed] [bot]     # bot: e.g. greedy, mcts
//
// STAWVS_PYTHON names the Python to run (default: python3); the stawvs_ap
// package must be importable by it (installed, or on PYTHONPATH). Exits with
// status 1 on any error: an error response, a server that stops, a timeout.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const players = Number(process.argv[2] ?? 2);
const seed = Number(process.argv[3] ?? 1);
const bot = process.argv[4] ?? "greedy";
const python = process.env.STAWVS_PYTHON || "python3";
const TIME_LIMIT_MS = 120_000;

function fail(message) {
  console.error(`play.mjs: ${message}`);
  process.exit(1);
}

// A small seeded generator (mulberry32), so the same seed plays the same game.
function random(seedValue) {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The server: one request line out, one response line back, matched by id.
const server = spawn(python, ["-m", "stawvs_ap", "serve"], {
  stdio: ["pipe", "pipe", "inherit"],
});
server.on("error", (err) => fail(`cannot start ${python}: ${err.message}`));
const pending = new Map();
let finished = false;
server.on("exit", (code, signal) => {
  // After the game the server must end cleanly once its input closes.
  if (!finished || code !== 0) fail(`the server stopped (status ${code ?? signal})`);
});

createInterface({ input: server.stdout }).on("line", (line) => {
  let response;
  try {
    response = JSON.parse(line);
  } catch {
    fail(`the server wrote a line that is not JSON: ${line.slice(0, 200)}`);
  }
  const waiting = pending.get(response.id);
  if (!waiting) fail(`an answer to no request: ${line.slice(0, 200)}`);
  pending.delete(response.id);
  if (response.error) {
    const { code, message, data } = response.error;
    waiting.reject(new Error(`${code}${data?.code ? ` ${data.code}` : ""}: ${message}`));
  } else {
    waiting.resolve(response.result);
  }
});

let nextId = 1;
function call(method, params = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    server.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
}

async function play() {
  const pick = random(seed);
  const { version } = await call("version");
  let { state, currplayer } = { ...(await call("new", { players, seed })), currplayer: 1 };
  let plies = 0;
  let botMoves = 0;
  for (;;) {
    let after;
    if (currplayer === 1) {
      const { moves } = await call("moves", { state });
      const move = moves[Math.floor(pick() * moves.length)];
      after = await call("move", { state, move });
    } else {
      // The engine's bot fills the seat: a spec, a budget, and a seed to repeat it.
      after = await call("bot_move", { state, bot, seconds: 0.2, seed: seed + plies });
      botMoves += 1;
    }
    state = after.state;
    currplayer = after.currplayer;
    plies += 1;
    if (after.gameover) {
      const { scores } = await call("scores", { state });
      const winners = after.winner.map((p) => `player ${p}`).join(" and ");
      console.log(`Stawvs ${version}, ${players} players, seed ${seed}: ${plies} plies`);
      console.log(`Players 2-${players}: the ${bot} bot (bot_move), ${botMoves} moves`);
      console.log(`Scores: ${scores.join(", ")}`);
      console.log(`Winner: ${winners || "nobody"}`);
      return;
    }
  }
}

const timer = setTimeout(() => fail(`no result within ${TIME_LIMIT_MS / 1000} s`), TIME_LIMIT_MS);
try {
  await play();
} catch (err) {
  fail(err.message);
}
finished = true;
clearTimeout(timer);
server.stdin.end();
