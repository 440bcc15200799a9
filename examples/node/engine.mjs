#!/usr/bin/env node
// A tiny Stawvs engine for `stawvs-ap --bot exec:...`: it speaks the engine
// protocol of docs/bots.md (JSON-RPC 2.0, one JSON object per line on standard
// input and output) and plays the legal move that claims the largest pyramid,
// breaking ties with a generator seeded from the request. Plain Node >= 18, no
// dependencies.
//
//   stawvs-ap arena --bot "exec:node examples/node/engine.mjs" --bot random --games 4
//   stawvs-ap play --bot "exec:node examples/node/engine.mjs"

import { createInterface } from "node:readline";

// A small seeded generator (mulberry32) and a seed made from text.
function generator(text) {
  let a = 2166136261;
  for (const ch of String(text)) a = Math.imul(a ^ ch.charCodeAt(0), 16777619) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The size (1-3) of the pyramid on each square of a position notation's board
// field ("BL3@1.PI2.../..."), by square name; 0 for an empty square.
function sizes(position) {
  const board = position.split(" ")[0];
  const found = {};
  board.split("/").forEach((rank, row) => {
    const cells = rank.match(/\.|[A-Z]{2}[1-3](@[1-4])?/gi) ?? [];
    cells.forEach((cell, col) => {
      found["abcdefgh"[col] + (8 - row)] = cell === "." ? 0 : Number(cell[2]);
    });
  });
  return found;
}

function choose(params, random) {
  const size = sizes(params.position);
  // A collection move is FROM-TO,TARGET: value it by the pyramid it claims.
  const value = (move) => (move.includes(",") ? size[move.split(",")[1]] : 0);
  const best = Math.max(...params.moves.map(value));
  const top = params.moves.filter((move) => value(move) === best);
  return top[Math.floor(random() * top.length)];
}

let random = null;
const answer = (message) => process.stdout.write(JSON.stringify(message) + "\n");

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    answer({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "not JSON" } });
    continue;
  }
  if (request.method === "quit") break;
  if (request.method === "choose") {
    random ??= generator(request.params.seed ?? "engine.mjs");
    answer({ jsonrpc: "2.0", id: request.id, result: { move: choose(request.params, random) } });
  } else if (request.id !== undefined) {
    answer({
      jsonrpc: "2.0",
      id: request.id,
      error: { code: -32601, message: `there is no method ${request.method}` },
    });
  }
}
