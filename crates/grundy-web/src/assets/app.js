// grundy serve: the page. Plain JavaScript, no build step, no library. Every computation is a
// POST to /api/cli (what `grundy ARGS --json` prints) or /api/picture (the same plus a file
// the program drew). The game is kept here as the list of moves played; the server replays it
// each time (`grundy play FAMILY POSITION --move ... --report --json`), so undo is dropping moves.
"use strict";

const $ = (id) => document.getElementById(id);

async function cli(args, stdin, signal) {
  const body = { args };
  if (stdin !== undefined) body.stdin = stdin;
  return post("/api/cli", body, signal);
}

async function picture(args, output, signal) {
  return post("/api/picture", { args, output: output || "--svg" }, signal);
}

// One computation at a time per panel: asking again abandons the previous request (its
// connection is closed, and the server then stops the computation and frees its slot).
const pending = {};
function fresh(panel) {
  if (pending[panel]) pending[panel].abort();
  pending[panel] = new AbortController();
  return pending[panel].signal;
}
const abandoned = (e) => e && e.name === "AbortError";

// A "busy" answer (every computation slot taken) is retried a few times before it is shown.
async function post(url, body, signal) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await postOnce(url, body, signal);
    } catch (e) {
      if (!e.busy || attempt >= 4) throw e;
      await new Promise((r) => setTimeout(r, 200 + 300 * attempt));
    }
  }
}

async function postOnce(url, body, signal) {
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (abandoned(e)) throw e;
    throw new Error("the grundy server does not answer (was it stopped?)");
  }
  const text = await res.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error("unreadable answer: " + text.slice(0, 200));
  }
  if (!res.ok) {
    const err = new Error(data.error || "error " + res.status);
    err.busy = res.status === 503 && /busy/.test(err.message);
    throw err;
  }
  return data;
}

function words(text) {
  return text.trim().split(/[\s,]+/).filter((w) => w.length > 0);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// ---------------------------------------------------------------- tabs
for (const b of document.querySelectorAll("header nav button")) {
  b.addEventListener("click", () => {
    for (const x of document.querySelectorAll("header nav button")) x.classList.remove("active");
    b.classList.add("active");
    for (const t of ["play", "explore", "about"]) {
      $("page-" + t).classList.toggle("hidden", t !== b.dataset.tab);
    }
  });
}

// ---------------------------------------------------------------- play: setup
const FAMILIES = {
  nim: { label: "Heaps", example: "3 5 2", note: "Click a token: it and every token to its right are taken." },
  welter: { label: "Coins on squares", example: "1 4 7 8", note: "Click a box of the Young diagram: its hook is removed (the coin of its row slides left by the hook's length)." },
  takebreak: { label: "Heaps", example: "5 7", note: "Click a token to take tokens from the right end; a move that splits a heap: choose it in the list of moves (Hint) or type 'HEAP PARTS', e.g. '0 2 1'." },
  subtraction: { label: "Heaps", example: "10 7", note: "Click a token: it and every token to its right are taken, if that many may be taken." },
  wythoff: { label: "Two heaps", example: "4 8", note: "Click a token to take from one heap; 'both -K' takes K from both (type it, or pick it from the moves)." },
  cdnim: { label: "Heaps", example: "6 3 2", note: "Click a token to shrink a heap (legal when the numbers allow it)." },
  cram: { label: "Board (ROWSxCOLS, or rows of . and #)", example: "4x4", note: "Click two adjacent empty cells to place a domino." },
  chomp: { label: "Bar (ROWSxCOLS or row lengths)", example: "4x5", note: "Click a square: it and everything above and to the right are eaten. The green square is poisoned." },
  graph: { label: "Start node (empty: the root)", example: "", note: "Click a node to move the token there. Loopy graphs may end in a draw." },
  multiplayer: { label: "Heaps", example: "2 2 2", note: "You are player 0; the engine plays every other seat, each following the preferences." },
};

function showFamilyFields() {
  const f = $("family").value;
  for (const d of document.querySelectorAll("[data-for]")) d.classList.toggle("hidden", d.dataset.for !== f);
  $("position-label").textContent = FAMILIES[f].label;
  $("position").value = FAMILIES[f].example;
  $("family-note").textContent = FAMILIES[f].note;
  $("first").disabled = f === "multiplayer";
}
$("family").addEventListener("change", showFamilyFields);
showFamilyFields();

$("graphfile").addEventListener("change", async () => {
  const file = $("graphfile").files[0];
  if (file) $("graphtext").value = await file.text();
});

// ---------------------------------------------------------------- play: the game
let game = null; // {family, base: [...args], stdin, me, players, strength, moves: [...], report}
let busy = false;

function baseArgs() {
  const f = $("family").value;
  const pos = words($("position").value);
  switch (f) {
    case "takebreak":
      return ["play", "takebreak:" + $("code").value.trim(), ...pos];
    case "subtraction":
      return ["play", "subtraction", "--" + $("subkind").value, $("subset").value.trim(), ...pos];
    case "graph":
      return ["play", "graph", "-", ...pos];
    case "multiplayer": {
      const a = ["play", "multiplayer", "--players", String($("players").value)];
      // GAMES(K1..KM) offsets, or one order per player separated by '/' (as the CLI's --prefs)
      const order = $("order").value.trim();
      if (order) a.push(order.includes("/") ? "--prefs" : "--order", order);
      return a.concat(pos);
    }
    case "cram":
      return ["play", "cram", ...$("position").value.trim().split(/\s+/)];
    default:
      return ["play", f, ...pos];
  }
}

function say(text) {
  $("message").textContent = text || "";
}

async function report(engineTurn) {
  const args = [...game.base];
  for (const m of game.moves) args.push("--move=" + m);
  args.push("--report", "--engine", game.strength);
  if (engineTurn) args.push("--engine-turn", "--seed", String(Math.floor(Math.random() * 1e9)));
  return cli(args, game.stdin);
}

async function newGame() {
  say("");
  const f = $("family").value;
  game = {
    family: f,
    base: baseArgs(),
    stdin: f === "graph" ? $("graphtext").value : undefined,
    me: f === "multiplayer" ? 0 : $("first").value === "me" ? 0 : 1,
    strength: $("strength").value,
    moves: [],
    lines: [],
    report: null,
  };
  $("hintbox").classList.add("hidden");
  try {
    game.report = await report(false);
  } catch (e) {
    game = null;
    say(e.message);
    $("status").textContent = "Choose a game and press Start.";
    $("board").replaceChildren();
    return;
  }
  game.lines.push("start: " + game.report.position + "   (" + game.base.slice(1).join(" ") + ")");
  await advance();
}

// Let the engine move while it is not the student's turn.
async function advance() {
  busy = true;
  try {
    while (!game.report.over && game.report.to_move !== game.me) {
      const r = await report(true);
      const e = r.engine_move;
      game.moves.push(e.move);
      const who = game.report.players === 2 ? "engine" : "player " + e.player + " (engine)";
      game.lines.push(game.moves.length + ". " + who + ": " + e.move + "  → " + r.position + "   (" + e.why + ")");
      game.report = r;
    }
  } catch (e) {
    say(e.message);
  } finally {
    busy = false;
  }
  render();
}

async function playMove(move) {
  if (!game || busy) return;
  if (game.report.over) {
    say("The game is over; press Start for a new one.");
    return;
  }
  if (game.report.to_move !== game.me) return;
  say("");
  busy = true;
  game.moves.push(move);
  try {
    const r = await report(false);
    game.report = r;
    game.lines.push(game.moves.length + ". you: " + move + "  → " + r.position);
  } catch (e) {
    game.moves.pop();
    say("Illegal move: " + e.message.replace(/^--move '.*?' \(move \d+\): /, ""));
    busy = false;
    return;
  }
  busy = false;
  await advance();
}

async function undo() {
  if (!game || busy) return;
  const m = game.report.players;
  let k = game.moves.length - 1;
  while (k >= 0 && k % m !== game.me) k--;
  if (k < 0) {
    say("Nothing to undo.");
    return;
  }
  game.moves = game.moves.slice(0, k);
  game.lines.push("(undo: back to move " + (k + 1) + ")");
  game.report = await report(false);
  say("");
  render();
}

function render() {
  const r = game.report;
  const st = $("status");
  st.className = "";
  if (r.over) {
    if (r.last_mover === null) {
      st.textContent = "Game over: the first player cannot move.";
    } else if (r.last_mover === game.me) {
      st.textContent = "You made the last move: you win!";
      st.className = "won";
    } else {
      st.textContent = (r.players === 2 ? "The engine" : "Player " + r.last_mover) + " made the last move: you lose.";
      st.className = "lost";
    }
    if (!game.lines[game.lines.length - 1].startsWith("end")) {
      game.lines.push("end: " + st.textContent);
    }
  } else if (game.family === "graph" && game.moves.length > 200) {
    st.textContent = "Still going after 200 moves: on a loopy graph this is how a draw looks.";
  } else {
    st.textContent = "Your move (player " + game.me + "). " + (r.players > 2 ? "" : "");
  }
  $("syntax").textContent = r.syntax;
  renderBoard(r);
  renderHint(r);
  $("transcript").value = game.lines.join("\n");
}

function renderHint(r) {
  $("evaluation").textContent = r.evaluation;
  $("explanation").textContent = r.explanation.join("\n");
  $("suggestion").textContent = r.best_move ? "Suggested move: " + r.best_move + " (" + r.why + ")" : "";
  const body = $("options").querySelector("tbody");
  body.replaceChildren();
  for (const o of r.options || []) {
    const v = o.verdict !== null ? o.verdict : o.value;
    const tr = el("tr", { class: o.good ? "good" : "", "data-move": o.move },
      el("td", {}, o.move), el("td", {}, o.after), el("td", { class: "value" }, String(v)));
    tr.addEventListener("click", () => playMove(o.move));
    body.append(tr);
  }
  if (!r.options) {
    body.append(el("tr", {}, el("td", { colspan: "3" }, "too many moves to list")));
  }
}

function myTurn() {
  return game && !game.report.over && game.report.to_move === game.me && !busy;
}

function renderBoard(r) {
  const b = $("board");
  b.replaceChildren();
  const s = r.state;
  if (s.kind === "heaps") {
    s.heaps.forEach((h, i) => {
      const n = Number(h);
      const row = el("div", { class: "heap", "data-heap": String(i) }, el("span", { class: "label" }, "heap " + i));
      if (n <= 60) {
        for (let j = 0; j < n; j++) {
          const t = el("span", { class: "token", title: "heap " + i + " becomes " + j, "data-heap": String(i), "data-to": String(j) });
          t.addEventListener("mouseenter", () => {
            for (const x of row.querySelectorAll(".token")) x.classList.toggle("take", Number(x.dataset.to) >= j);
          });
          t.addEventListener("mouseleave", () => {
            for (const x of row.querySelectorAll(".token")) x.classList.remove("take");
          });
          t.addEventListener("click", () => myTurn() && playMove(i + " " + j));
          row.append(t);
        }
      }
      row.append(el("span", { class: "count" }, String(h)));
      b.append(row);
    });
  } else if (s.kind === "welter") {
    b.append(youngBoard(s));
  } else if (s.kind === "cram") {
    b.append(cramBoard(s));
  } else if (s.kind === "chomp") {
    b.append(chompBoard(s));
  } else if (s.kind === "graph") {
    const row = el("div", { class: "row" }, el("span", { class: "big" }, "token on '" + s.node + "'; move to: "));
    for (const o of s.options) {
      const btn = el("button", { "data-node": o }, o);
      btn.addEventListener("click", () => myTurn() && playMove(o));
      row.append(btn);
    }
    if (s.options.length === 0) row.append("(no moves)");
    b.append(row);
  }
}

function youngBoard(s) {
  const wrap = el("div", {});
  const width = s.partition.length ? s.partition[0] : 0;
  const grid = el("div", { class: "grid young", style: "grid-template-columns: repeat(" + Math.max(width, 1) + ", 2.3rem)" });
  const byRow = {};
  for (const c of s.cells) (byRow[c.row] = byRow[c.row] || []).push(c);
  const cellsAt = {};
  s.partition.forEach((len, r) => {
    for (let c = 0; c < width; c++) {
      const info = (byRow[r] || [])[c];
      if (c < len && info) {
        const d = el("div", { class: "cell", "data-row": String(r), "data-col": String(c), "data-move": info.move, title: "hook " + info.hook + ": move " + info.move }, String(info.hook));
        cellsAt[r + "," + c] = d;
        d.addEventListener("mouseenter", () => highlightHook(s, r, c, cellsAt, true));
        d.addEventListener("mouseleave", () => highlightHook(s, r, c, cellsAt, false));
        d.addEventListener("click", () => myTurn() && playMove(info.move));
        grid.append(d);
      } else {
        grid.append(el("div", { class: "cell gone" }));
      }
    }
  });
  if (s.partition.length === 0) wrap.append(el("p", { class: "big" }, "the empty diagram: no hooks left"));
  else wrap.append(grid);
  // the strip of coins beside it
  const top = s.squares.length ? s.squares[s.squares.length - 1] : 0;
  if (top < 80) {
    const strip = el("div", { class: "strip", id: "strip" });
    const occupied = new Set(s.squares);
    for (let q = 0; q <= top; q++) {
      strip.append(el("div", { class: "sq" + (occupied.has(q) ? " coin" : ""), "data-square": String(q), title: "square " + q }, ""));
    }
    wrap.append(el("p", { class: "note" }, "The same position as coins on a strip (square 0 on the left); removing a hook of length h slides a coin h squares left:"), strip);
  }
  return wrap;
}

function highlightHook(s, r, c, cellsAt, on) {
  const len = s.partition[r];
  for (let j = c; j < len; j++) cellsAt[r + "," + j] && cellsAt[r + "," + j].classList.toggle("hook", on);
  for (let i = r + 1; i < s.partition.length && s.partition[i] > c; i++) cellsAt[i + "," + c] && cellsAt[i + "," + c].classList.toggle("hook", on);
  const info = s.cells.find((x) => x.row === r && x.col === c);
  if (info) {
    const to = info.move.split(" ")[1];
    const sq = document.querySelector('#strip [data-square="' + to + '"]');
    if (sq) sq.classList.toggle("target", on);
  }
}

let cramFirst = null;
function cramBoard(s) {
  const grid = el("div", { class: "grid", style: "grid-template-columns: repeat(" + s.cols + ", 2.3rem)" });
  s.board.forEach((line, r) => {
    [...line].forEach((ch, c) => {
      const d = el("div", { class: "cell" + (ch === "." ? "" : " filled"), "data-row": String(r), "data-col": String(c) }, "");
      if (ch === ".") {
        d.addEventListener("click", () => {
          if (!myTurn()) return;
          if (cramFirst === null) {
            cramFirst = [r, c];
            d.classList.add("selected");
          } else {
            const [r0, c0] = cramFirst;
            cramFirst = null;
            if (r0 === r && c0 === c) {
              d.classList.remove("selected");
              return;
            }
            playMove(r0 + " " + c0 + " " + r + " " + c);
          }
        });
      }
      grid.append(d);
    });
  });
  cramFirst = null;
  return grid;
}

function chompBoard(s) {
  const width = s.rows[0];
  const grid = el("div", { class: "grid", style: "grid-template-columns: repeat(" + width + ", 2.3rem)" });
  for (let r = s.rows.length - 1; r >= 0; r--) {
    for (let c = 0; c < width; c++) {
      if (c < s.rows[r]) {
        const poison = r === 0 && c === 0;
        const d = el("div", { class: "cell" + (poison ? " poison" : ""), "data-row": String(r), "data-col": String(c), title: "bite " + r + " " + c }, poison ? "P" : "");
        if (!poison) d.addEventListener("click", () => myTurn() && playMove(r + " " + c));
        grid.append(d);
      } else {
        grid.append(el("div", { class: "cell gone" }));
      }
    }
  }
  return grid;
}

$("newgame").addEventListener("click", newGame);
$("play").addEventListener("click", () => {
  const m = $("movetext").value.trim();
  if (m) playMove(m).then(() => ($("movetext").value = ""));
});
$("movetext").addEventListener("keydown", (e) => {
  if (e.key === "Enter") $("play").click();
});
$("hint").addEventListener("click", () => {
  if (game) $("hintbox").classList.toggle("hidden");
});
$("undo").addEventListener("click", undo);
$("copy").addEventListener("click", async () => {
  $("transcript").select();
  try {
    await navigator.clipboard.writeText($("transcript").value);
  } catch (e) {
    document.execCommand("copy");
  }
});

// ---------------------------------------------------------------- explore: sequences
$("seqgo").addEventListener("click", async () => {
  $("seqmessage").textContent = "";
  $("period-label").textContent = "computing…";
  $("certificate").textContent = "";
  $("seqplot").replaceChildren();
  $("rare").replaceChildren();
  $("outcomes").replaceChildren();
  const code = $("seqcode").value.trim();
  const n = $("seqn").value.trim();
  let data;
  try {
    data = await picture(["takebreak", code, "--n", n, "--print", "--no-record", "--rare-classes"], "--svg", fresh("sequence"));
  } catch (e) {
    if (abandoned(e)) return; // a newer plot was asked for
    $("period-label").textContent = "";
    $("seqmessage").textContent = e.message;
    return;
  }
  const r = data.report;
  $("seqplot").innerHTML = data.file;
  const p = r.period;
  if (p) {
    $("period-label").textContent = "preperiod " + p.preperiod + ", period " + p.period;
    $("certificate").textContent = p.certified
      ? "Certified at n = " + p.certified_at + ": from n = " + p.preperiod + " on, the values repeat with period " +
        p.period + " over a stretch long enough for the periodicity theorem (Guy–Smith: up to 2·preperiod + period + the most tokens a move removes), so they repeat forever."
      : "Seen, not certified.";
  } else {
    $("period-label").textContent = "no period found up to n = " + r.n;
    $("certificate").textContent = "The periodicity theorem needs the values to repeat over a long enough stretch; none did up to n = " + r.n + ".";
  }
  const values = r.values || [];
  showRareCommon(r);
  const shown = Math.min(values.length, 200);
  for (let i = 0; i < shown; i++) {
    $("outcomes").append(el("span", { class: values[i] === 0 ? "P" : "N", title: "G(" + i + ") = " + values[i] }, i + ":" + values[i]));
  }
});

// The rare and common classes as the rare/common engine splits them (the report's
// `rare_common`, computed by the library: the page does not define "rare" itself).
function showRareCommon(r) {
  const s = r.rare_common;
  if (!s) {
    $("rare").append(el("p", { class: "note" }, "Rare and common values are the rare/common (sparse) engine's split, which runs octal codes only (every digit below 8)."));
    return;
  }
  // a value common at both parities is shown once; else with the parity of its heap sizes
  const parities = {};
  for (const c of s.common) (parities[c.value] = parities[c.value] || []).push(c.heaps);
  const common = Object.keys(parities).map((v) => (parities[v].length === 2 ? v : v + " (" + parities[v][0] + " n)"));
  $("rare").append(
    el("p", { class: "note", id: "rare-summary" },
      "The sparse engine's split after computing G(0.." + s.counted_up_to + "): common " + common.join(", ") +
      "; " + s.rare_positions + " heap sizes in " + s.rare_class_count + " rare classes (the options the engine looks at one by one)."),
  );
  if (!s.rare.length) return;
  const list = el("table", { class: "options", id: "rare-table" },
    el("tr", {}, el("th", {}, "rare value"), el("th", {}, "heaps"), el("th", {}, "occurs"), el("th", {}, "at n =")));
  for (const c of s.rare) {
    const more = c.count > c.positions.length ? ", …" : "";
    list.append(el("tr", {}, el("td", {}, String(c.value)), el("td", {}, c.heaps), el("td", {}, String(c.count)), el("td", {}, c.positions.join(", ") + more)));
  }
  $("rare").append(list);
  if (s.rare_class_count > s.rare.length) {
    $("rare").append(el("p", { class: "note" }, "(the first " + s.rare.length + " of " + s.rare_class_count + " rare classes)"));
  }
}

// ---------------------------------------------------------------- explore: subtraction outcomes
$("sgo").addEventListener("click", async () => {
  $("smessage").textContent = "";
  $("soutcomes").replaceChildren();
  try {
    const r = await cli(["subtraction", "--" + $("ssubkind").value, $("sset").value.trim(), "--sequence", $("sn").value.trim()]);
    r.values.forEach((g, i) => {
      $("soutcomes").append(el("span", { class: g === 0 ? "P" : "N", title: "G(" + i + ") = " + g }, i + ":" + (g === 0 ? "P" : "N") + g));
    });
  } catch (e) {
    $("smessage").textContent = e.message;
  }
});

// ---------------------------------------------------------------- explore: Young diagrams
$("ygo").addEventListener("click", async () => {
  $("ymessage").textContent = "";
  const parts = words($("parts").value);
  const r = $("runners").value.trim();
  let data;
  try {
    data = await picture(["young", ...parts, "--core", r, "--quotient", r], "--svg");
  } catch (e) {
    $("ymessage").textContent = e.message;
    return;
  }
  $("ysvg").innerHTML = data.file;
  const y = data.report;
  const runners = Number(r);
  const beta = y.beta;
  const top = beta.length ? Math.max(...beta) : 0;
  const lines = [];
  const header = [];
  for (let i = 0; i < runners; i++) header.push("r" + i);
  lines.push("abacus, " + runners + " runners (beads = beta-numbers " + beta.join(",") + "):");
  lines.push(header.join(" "));
  for (let row = 0; row * runners <= top; row++) {
    const cells = [];
    for (let i = 0; i < runners; i++) {
      const pos = row * runners + i;
      cells.push((beta.includes(pos) ? "●" : "·").padEnd(2, " ") + " ");
    }
    lines.push(cells.join(""));
  }
  $("abacus").textContent = lines.join("\n");
  $("yfacts").textContent = [
    "partition " + y.partition.join(",") + " (" + y.boxes + " boxes)",
    "Grundy value " + y.grundy_value + " (" + y.outcome + "-position)",
    runners + "-core: " + (y.core.length ? y.core.join(",") : "empty"),
    runners + "-quotient: " + y.quotient.map((q) => "(" + q.join(",") + ")").join(" "),
    "winning moves: " + (y.winning_moves.length ? y.winning_moves.map((m) => "hook at row " + m.row + ", column " + m.column + " (length " + m.hook_length + ")").join("; ") : "none"),
  ].join("\n");
});

$("ygraph").addEventListener("click", async () => {
  $("ymessage").textContent = "";
  $("ygraphbox").replaceChildren();
  const parts = words($("parts").value);
  try {
    const g = await picture(["young", ...parts], "--graph-out");
    const values = await cli(["graph", "-", "--all"], g.file);
    $("ygraphbox").append(drawGraph(JSON.parse(g.file), values));
  } catch (e) {
    $("ymessage").textContent = e.message;
  }
});

// The game graph of a small position of a Play family: the move model lists it
// (`grundy play ... --report --graph-out`), the plain graph evaluator values it.
$("pggo").addEventListener("click", async () => {
  $("pgmessage").textContent = "";
  $("pgraphbox").replaceChildren();
  const family = $("pgfamily").value;
  const args = ["play"];
  if (family === "takebreak") args.push("takebreak:" + $("pgcode").value.trim());
  else args.push(family);
  if (family === "subtraction") args.push("--set", $("pgcode").value.trim());
  args.push(...words($("pgposition").value), "--report");
  try {
    const signal = fresh("position-graph");
    const g = await picture(args, "--graph-out", signal);
    const values = await cli(["graph", "-", "--all"], g.file, signal);
    $("pgraphbox").append(drawGraph(JSON.parse(g.file), values));
  } catch (e) {
    if (!abandoned(e)) $("pgmessage").textContent = e.message;
  }
});

$("xgo").addEventListener("click", async () => {
  $("xmessage").textContent = "";
  $("xgraphbox").replaceChildren();
  const text = $("xgraphtext").value;
  try {
    const values = await cli(["graph", "-", "--loopy", "--all"], text);
    $("xgraphbox").append(drawGraph(JSON.parse(text), values));
  } catch (e) {
    $("xmessage").textContent = e.message;
  }
});

// A layered drawing of a game graph: the root on top, each node one layer below its deepest
// parent (longest path), P-positions (value 0) marked.
function drawGraph(graph, values) {
  const NS = "http://www.w3.org/2000/svg";
  const nodes = graph.nodes;
  if (nodes.length > 150) {
    return el("p", { class: "note" }, "the graph has " + nodes.length + " positions; draw a smaller diagram (at most 150).");
  }
  const value = {};
  const outcome = {};
  for (const n of values.nodes) {
    const g = n.grundy_value;
    value[n.id] = g !== null && typeof g === "object" ? "∞{" + g.k.join(",") + "}" : g;
    outcome[n.id] = n.outcome || (g === 0 ? "P" : "N");
  }
  const fill = { P: ["#fde7c8", "#c77d1a"], N: ["#dcecff", "#6b8fc7"], D: ["#eeeeee", "#888888"] };
  const index = {};
  nodes.forEach((n, i) => (index[n.id] = i));
  const depth = nodes.map(() => 0);
  // longest-path layering (the graph is acyclic)
  const order = [];
  const seen = new Set();
  const visit = (i) => {
    if (seen.has(i)) return;
    seen.add(i);
    for (const o of nodes[i].options) visit(index[o]);
    order.push(i);
  };
  visit(index[graph.root]);
  for (const i of order.reverse()) for (const o of nodes[i].options) depth[index[o]] = Math.max(depth[index[o]], depth[i] + 1);
  const layers = [];
  nodes.forEach((n, i) => (layers[depth[i]] = layers[depth[i]] || []).push(i));
  const W = 110, H = 70;
  const width = Math.max(...layers.map((l) => l.length)) * W + 20;
  const height = layers.length * H + 20;
  const pos = {};
  layers.forEach((l, d) => l.forEach((i, k) => (pos[i] = [10 + W / 2 + k * W + (width - 20 - l.length * W) / 2, 30 + d * H])));
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  for (const [i, n] of nodes.entries()) {
    for (const o of n.options) {
      const [x1, y1] = pos[i], [x2, y2] = pos[index[o]];
      const line = document.createElementNS(NS, "line");
      Object.entries({ x1, y1, x2, y2, stroke: "#b8c0cf", "stroke-width": 1 }).forEach(([k, v]) => line.setAttribute(k, v));
      svg.append(line);
    }
  }
  for (const [i, n] of nodes.entries()) {
    const [x, y] = pos[i];
    const g = document.createElementNS(NS, "g");
    const rect = document.createElementNS(NS, "rect");
    const v = value[n.id];
    const [bg, line] = fill[outcome[n.id]] || fill.N;
    Object.entries({ x: x - 48, y: y - 16, width: 96, height: 32, rx: 6, fill: bg, stroke: line }).forEach(([k, val]) => rect.setAttribute(k, val));
    const t = document.createElementNS(NS, "text");
    Object.entries({ x, y: y + 4, "text-anchor": "middle", "font-size": 11 }).forEach(([k, val]) => t.setAttribute(k, val));
    t.textContent = n.id.replace(/[\[\]]/g, "").replace(/,\s+/g, ",") + "  G=" + v;
    g.append(rect, t);
    svg.append(g);
  }
  const wrap = el("div", {}, el("p", { class: "note" }, nodes.length + " positions; orange: P-positions (value 0), blue: N-positions, grey: draws."));
  wrap.append(svg);
  return wrap;
}
