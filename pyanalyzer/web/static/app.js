// The web analyzer's page: the card picker, the calls to the JSON API, stepping through the line.
// Every diagram is the server's SVG (pyanalyzer/render/svg.py); this file draws none.

const $ = (id) => document.getElementById(id);

const SUITS = [["s", "♠"], ["c", "♣"], ["d", "♦"], ["h", "♥"]];
// The suits' order in the deck, as in the diagrams (Whist: bridge's ♠ ♥ ♦ ♣).
const SUIT_ORDER = { preferans: "scdh", thousand: "scdh", whist: "shdc" };
const RANKS = {
  preferans: ["A", "K", "Q", "J", "T", "9", "8", "7"],
  thousand: ["A", "T", "K", "Q", "J", "9"],
  whist: ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"],
};
const SEATS = { preferans: ["W", "E", "S"], thousand: ["W", "E", "S"], whist: ["N", "E", "S", "W"] };
const EXTRA_TARGETS = { preferans: ["talon", "discard"], thousand: ["talon"], whist: [] };
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West", talon: "Talon", discard: "Discard" };
const DEFAULT_CONTRACT = { preferans: "6s", whist: "n", thousand: "100" };

const state = {
  game: "preferans",
  owners: new Map(),   // card code -> seat or "talon" / "discard"
  target: "S",
  entered: null,       // the deal as loaded or composed (one-line form)
  text: null,          // the start of the play: the deal, with the discard or exchange solve made
  moves: [],           // the cards played from it by clicking
  line: [],            // the best line from the position after the moves
  step: 0,             // how many cards of the line are shown played
  solution: null,
  position: null,      // the position after the moves (the API's layout object)
  job: null,           // the job under way: its id, title, unit and what shows its result
  busy: 0,
};

// -- the API ----------------------------------------------------------------------------------

async function api(path, body, method = "POST") {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function showError(error) {
  const box = $("message");
  box.textContent = String(error.message || error);
  box.hidden = false;
}

function clearError() {
  $("message").hidden = true;
  $("message").textContent = "";
}

async function busy(work) {
  state.busy += 1;
  document.body.classList.add("busy");
  try {
    clearError();
    return await work();
  } catch (error) {
    showError(error);
    return null;
  } finally {
    state.busy -= 1;
    if (!state.busy) document.body.classList.remove("busy");
  }
}

// -- the card picker --------------------------------------------------------------------------

const isRed = (suit) => suit === "d" || suit === "h";
const rankLabel = (rank) => (rank === "T" ? "10" : rank);
const suitSign = (suit) => SUITS.find(([s]) => s === suit)[1];

function cardHtml(code) {
  const rank = code.slice(0, -1), suit = code.slice(-1);
  return `<span class="card${isRed(suit) ? " red" : ""}">${suitSign(suit)}${rankLabel(rank)}</span>`;
}

function targets() {
  return [...SEATS[state.game], ...EXTRA_TARGETS[state.game]];
}

function renderTargets() {
  const box = $("targets");
  box.innerHTML = "";
  for (const target of targets()) {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "radio");
    button.dataset.target = target;
    button.setAttribute("aria-checked", String(target === state.target));
    const count = [...state.owners.values()].filter((owner) => owner === target).length;
    button.innerHTML = `${SEAT_NAMES[target]}<span class="count">${count}</span>`;
    button.addEventListener("click", () => {
      state.target = target;
      renderTargets();
      renderDeck();
    });
    box.append(button);
  }
}

function renderDeck() {
  const deck = $("deck");
  deck.innerHTML = "";
  deck.className = `deck ${state.game}`;
  for (const suit of SUIT_ORDER[state.game]) {
    const sign = suitSign(suit);
    const row = document.createElement("div");
    row.className = "suit-row";
    row.innerHTML = `<span class="suit-sign${isRed(suit) ? " red" : ""}">${sign}</span>`;
    for (const rank of RANKS[state.game]) {
      const code = rank + suit;
      const owner = state.owners.get(code);
      const button = document.createElement("button");
      button.type = "button";
      button.className = `pick${isRed(suit) ? " red" : ""}${owner ? " taken" : ""}${owner === state.target ? " here" : ""}`;
      button.dataset.card = code;
      button.title = owner ? `${sign}${rankLabel(rank)}: ${SEAT_NAMES[owner]}` : `${sign}${rankLabel(rank)}`;
      button.innerHTML = `${rankLabel(rank)}${owner ? `<span class="owner">${owner === "talon" ? "T" : owner === "discard" ? "D" : owner}</span>` : ""}`;
      button.addEventListener("click", () => pick(code));
      row.append(button);
    }
    deck.append(row);
  }
}

function pick(code) {
  if (state.owners.get(code) === state.target) state.owners.delete(code);
  else state.owners.set(code, state.target);
  state.text = state.entered = null;  // the deal is now the picker's
  renderTargets();
  renderDeck();
}

function renderSeatSelects() {
  for (const id of ["declarer", "lead"]) {
    const select = $(id), previous = select.value;
    select.innerHTML = "";
    if (id === "declarer" && state.game === "preferans") select.append(new Option("— (all-pass)", ""));
    for (const seat of SEATS[state.game]) select.append(new Option(SEAT_NAMES[seat], seat));
    select.value = [...select.options].some((o) => o.value === previous) ? previous : "S";
  }
  $("contract-label").textContent = state.game === "thousand" ? "Bid" : state.game === "whist" ? "Trump (s h d c n)" : "Contract";
  refreshAnalyses();
}

/** Offer the analyses that apply to the game and contract in the fields. */
function refreshAnalyses() {
  const contract = $("contract").value.trim().toLowerCase();
  const kind = state.game !== "preferans" ? state.game
    : contract === "misere" ? "misere" : contract === "allpass" ? "allpass" : "tricks";
  for (const button of document.querySelectorAll("#analyses button")) {
    const wanted = button.dataset.for;
    button.hidden = wanted === "odds" ? !["misere", "tricks", "thousand"].includes(kind)
      : wanted === "record" ? kind === "allpass"
        : wanted === "discard" ? !(state.game === "preferans" && ["misere", "tricks"].includes(kind)) : wanted !== kind;
  }
  $("talon-option").hidden = kind !== "misere" && kind !== "tricks";
  $("talon-rule-option").hidden = kind !== "allpass";
  $("gave-option").hidden = kind !== "thousand";
}

function setGame(game) {
  if (game !== state.game) {
    state.game = game;
    $("game").value = game;
    state.owners = new Map();
    state.target = "S";
    $("contract").value = DEFAULT_CONTRACT[game];
  }
  renderSeatSelects();
  renderTargets();
  renderDeck();
}

function cardsOf(target) {
  const order = (code) => {
    const suit = SUIT_ORDER[state.game].indexOf(code.slice(-1));
    return suit * 20 + RANKS[state.game].indexOf(code.slice(0, -1));
  };
  return [...state.owners].filter(([, owner]) => owner === target).map(([code]) => code).sort((a, b) => order(a) - order(b));
}

/** The one-line layout the picker and the fields describe. */
function compose() {
  const words = [];
  const contract = $("contract").value.trim();
  const declarer = $("declarer").value;
  if (state.game !== "preferans") words.push(`game=${state.game}`);
  if (state.game === "thousand") words.push(`bid=${contract || "100"}`);
  else words.push(`contract=${contract || DEFAULT_CONTRACT[state.game]}`);
  if (declarer && contract !== "allpass") words.push(`declarer=${declarer}`);
  words.push(`lead=${$("lead").value}`);
  for (const target of targets()) {
    const cards = cardsOf(target);
    if (cards.length) words.push(`${target}=${cards.join(",")}`);
  }
  return words.join(" ");
}

/** Fill the picker and the fields from a layout object of the API. */
function fillFrom(layout) {
  setGame(layout.game);
  state.owners = new Map();
  for (const [seat, cards] of Object.entries(layout.hands)) for (const code of cards) state.owners.set(code, seat);
  for (const code of layout.discard || []) state.owners.set(code, "discard");
  for (const code of layout.talon || []) if (!state.owners.has(code)) state.owners.set(code, "talon");
  for (const code of layout.played || []) state.owners.delete(code);
  $("contract").value = layout.game === "thousand" ? String(layout.bid ?? "") : layout.contract;
  renderSeatSelects();
  $("declarer").value = layout.declarer || "";
  $("lead").value = layout.lead;
  if (layout.gave && Object.keys(layout.gave).length) {
    $("gave").value = Object.entries(layout.gave).map(([seat, code]) => `${seat}:${code}`).join(",");
  }
  renderTargets();
  renderDeck();
}

// -- the address ------------------------------------------------------------------------------

function updateAddress() {
  const params = new URLSearchParams();
  const played = state.moves.concat(state.line.slice(0, state.step));
  // The moves are played from the start of the play (the deal with solve's discard or exchange).
  const layout = played.length ? state.text : state.entered;
  if (layout) params.set("layout", layout);
  if (played.length) params.set("moves", played.join(","));
  const query = params.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

// -- solving and stepping ---------------------------------------------------------------------

function currentText() {
  if (!state.text) state.text = state.entered = compose();
  return state.text;
}

/** The deal as entered (the analyses of the whole deal start from it). */
function enteredText() {
  currentText();
  return state.entered || state.text;
}

async function drawPosition(moves, values) {
  const position = await api("/api/position", { layout: currentText(), moves, values });
  $("diagram").innerHTML = position.svg;
  renderAdviseControl(position);
  return position;
}

/** Solve the position after the clicked moves: verdict, card values, the best line. */
async function solveCurrent() {
  await busy(async () => {
    const position = await api("/api/position", { layout: currentText(), moves: state.moves });
    state.position = position;
    if (state.moves.length === 0) fillFrom(position);
    if (!position.tricks_left) {
      state.solution = null;
      state.line = [];
      state.step = 0;
      $("diagram").innerHTML = position.svg;
      renderAdviseControl(position);
      $("verdict").textContent = "The hands are played out.";
      $("summary").textContent = "";
      renderLine();
      updateAddress();
      return;
    }
    $("verdict").textContent = "";
    $("summary").textContent = "";
    const misere = position.contract === "misere";
    const solution = await api(misere ? "/api/misere" : "/api/solve", { layout: position.one_line });
    if (!state.moves.length && solution.layout && solution.layout !== position.one_line) {
      // Solve made the discard (Preferans) or the exchange (Thousand) it found best: the line
      // starts from that layout (the picker keeps the deal as entered).
      state.text = solution.layout;
      state.position = await api("/api/position", { layout: state.text });
    }
    state.solution = solution;
    // All-pass has no one best line: step through the one holding the player to move to his minimum.
    state.line = solution.line || (solution.lines && solution.lines[solution.to_move]) || [];
    state.step = 0;
    await drawPosition(state.moves, solution.cards ? "solve" : undefined);
    // The verdict last: once it shows, the diagram and the line are those of this answer.
    renderLine();
    $("verdict").textContent = verdictOf(solution);
    $("summary").textContent = misere ? solution.summary : "";
    updateAddress();
  });
}

function verdictOf(solution) {
  if (solution.verdict) return solution.verdict;
  if (solution.guaranteed) {
    return "All-pass: each player can hold himself to " + Object.entries(solution.guaranteed)
      .map(([seat, tricks]) => `${SEAT_NAMES[seat]} ${tricks}`).join(", ") + " tricks.";
  }
  return "";
}

async function stepTo(step) {
  step = Math.max(0, Math.min(state.line.length, step));
  await busy(async () => {
    // Each position's values are solved as it is drawn (best play's marked).
    await drawPosition(state.moves.concat(state.line.slice(0, step)), "solve");
    state.step = step;
    renderLine();
    updateAddress();
  });
}

function renderLine() {
  const box = $("line-box"), list = $("line");
  box.hidden = state.line.length === 0 && state.moves.length === 0;
  list.innerHTML = "";
  const seats = SEATS[state.game].length;
  const inTrick = state.position ? (state.position.played || []).length : 0;
  let trick = null, filled = seats;
  state.line.forEach((code, index) => {
    if (filled === seats || (index === 0 && inTrick)) {
      trick = document.createElement("li");
      list.append(trick);
      filled = index === 0 ? inTrick : 0;
    }
    const span = document.createElement("span");
    span.innerHTML = cardHtml(code.replace("+", ""));
    const card = span.firstChild;
    if (code.endsWith("+")) card.textContent += "+";
    card.classList.add(index < state.step ? "past" : index === state.step ? "now" : "future");
    trick.append(card, " ");
    filled += 1;
  });
  $("step-text").textContent = `card ${state.step} of ${state.line.length}`;
  $("first").disabled = $("back").disabled = state.step === 0;
  $("forward").disabled = $("last").disabled = state.step >= state.line.length;
  $("undo").hidden = state.moves.length === 0;
}

function playClicked(event) {
  const target = event.target.closest("g.move[data-move], g.card[data-legal='true']");
  if (!target || state.busy) return;
  const move = target.dataset.move || target.dataset.card;
  state.moves = state.moves.concat(state.line.slice(0, state.step), [move]);
  solveCurrent();
}

// -- the other analyses -----------------------------------------------------------------------

function table(headers, rows) {
  const head = headers.map((h) => `<th>${h}</th>`).join("");
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const cards = (codes) => (codes || []).map((c) => cardHtml(c.replace("+", ""))).join(" ");
const percent = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);

function renderAnalysis(title, data) {
  let html = `<h3>${title}</h3>`;
  if (data.verdict) html += `<p>${data.verdict}</p>`;
  if (data.summary) html += `<p>${data.summary}</p>`;
  if (Array.isArray(data.discards)) {
    html += table(["Discard", "Forced", "Catching leads"],
      data.discards.map((d) => [cards(d.discard), d.forced, cards(d.catching_cards)]));
  }
  if (data.table && data.deal) {
    html += `<p>${data.deal}</p>`;
    html += table(["Declarer", "♠", "♥", "♦", "♣", "NT"], Object.entries(data.table).map(([seat, row]) =>
      [SEAT_NAMES[seat], row.s ?? "–", row.h ?? "–", row.d ?? "–", row.c ?? "–", row.n ?? "–"]));
  }
  if (data.guaranteed) {
    html += table(["Player", "Can hold himself to (tricks)", "Self-interested split"], Object.entries(data.guaranteed).map(
      ([seat, n]) => [SEAT_NAMES[seat], n, data.split ? data.split[seat] ?? "–" : "–"]));
  }
  if (data.histogram || data.distribution) html += oddsHtml(data);
  if (data.declarer_tricks !== undefined && data.whist_obligation !== undefined) {
    html += `<p>Declarer ${data.declarer_tricks}, defenders ${data.defender_tricks}; whist obligation ${data.whist_obligation}.</p>`;
  }
  if (data.view === "exchange" && Array.isArray(data.gives)) {
    html += `<p>Best exchange: ${data.best_points} points with open cards; the highest bid made: ${data.highest_bid}.</p>`;
    html += table(["Gives", "Keeps", "Points", "Highest bid made"], data.gives.slice(0, 12).map((give) => [
      Object.entries(give.gave).map(([seat, code]) => `${SEAT_NAMES[seat]} ${cards([code])}`).join(", "),
      cards(give.kept), give.points, give.highest_bid ?? "none"]));
    if (data.gives.length > 12) html += `<p>… and ${data.gives.length - 12} more (all in the JSON below).</p>`;
  }
  html += jsonDetails(data, "the command prints with --json");
  $("analysis").innerHTML = html;
}

function oddsHtml(data) {
  // Tricks: a histogram by value; Thousand's points: [points, splits] pairs.
  const pairs = data.histogram ? data.histogram.map((count, value) => [value, count]) : data.distribution;
  const total = pairs.reduce((sum, [, count]) => sum + count, 0) || 1;
  const rows = pairs.filter(([, count]) => count).map(([value, count]) =>
    [value, count.toLocaleString(), percent(count / total)]);
  let html = "";
  if (data.interrupted || data.partial) {
    html += `<p><strong>Partial:</strong> stopped after ${data.splits.toLocaleString()} of ${data.total.toLocaleString()} splits; the figures cover those only.</p>`;
  }
  if (data.p_make !== undefined && data.p_make !== null) {
    html += `<p>Probability of making it: <strong>${percent(data.p_make)}</strong>.</p>`;
  }
  for (const [key, bounds] of Object.entries(data)) {  // a partial enumeration proves bounds only
    if (key.endsWith("_bounds") && Array.isArray(bounds)) {
      const name = key.replace(/_bounds$/, "").replace(/^p_/, "P(").replace(/^(P\(.*)$/, "$1)").replaceAll("_", " ");
      const shown = bounds.map(key.startsWith("p_") ? percent : (x) => Number(x).toFixed(2));
      html += `<p>${name}: between ${shown[0]} and ${shown[1]} (proven bounds).</p>`;
    }
  }
  if (data.expected_tricks !== undefined && data.expected_tricks !== null) {
    html += `<p>Expected tricks: ${Number(data.expected_tricks).toFixed(2)}.</p>`;
  }
  if (data.expected_points !== undefined && data.expected_points !== null) {
    html += `<p>Expected points: ${Number(data.expected_points).toFixed(1)}.</p>`;
  }
  if (data.p_caught !== undefined && data.p_caught !== null) {
    html += `<p>Probability the misère is caught: <strong>${percent(data.p_caught)}</strong>.</p>`;
  }
  return html + table([data.game === "thousand" ? "Points" : data.contract === "misere" ? "Tricks forced" : "Tricks",
    data.method === "sample" ? "Samples" : "Splits", "Share"], rows);
}

/** The answer as JSON, folded: what `what` (the command) prints. */
function jsonDetails(data, what) {
  return `<details><summary>The answer as JSON (what ${what})</summary><pre>${escapeHtml(JSON.stringify(data, null, 1))}</pre></details>`;
}

function escapeHtml(text) {
  return text.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
}

async function runAnalysis(kind) {
  if (kind === "odds") return startOdds();
  if (kind === "by-information") return startByInformation();
  if (kind === "discard-advice") return startDiscardAdvice();
  await busy(async () => {
    const position = state.position || await api("/api/position", { layout: currentText(), moves: state.moves });
    const layout = position.one_line;
    const requests = {
      "misere-unknown": ["Misère with the discard unknown", "/api/misere",
        { layout: enteredText(), talon: $("talon").value.trim() || (position.discard || []).join(",") }],
      contract: ["Defence and whist", "/api/contract", { layout }],
      allpass: ["All-pass guarantees", "/api/allpass", { layout, talon_rule: $("talon-rule").value }],
      table: ["Double-dummy table", "/api/table", { layout: enteredText() }],
      thousand: ["Thousand", "/api/thousand", { layout: enteredText() }],
    };
    const [title, path, body] = requests[kind];
    $("analysis").innerHTML = `<h3>${title}</h3><p>Working…</p>`;
    renderAnalysis(title, await api(path, body));
  });
}

// -- the declarer's odds: a job with a progress bar -------------------------------------------

async function startOdds() {
  await busy(async () => {
    const start = await api("/api/position", { layout: enteredText(), moves: [] });
    const declarer = start.declarer;
    if (!declarer) throw new Error("the declarer's odds need a declarer (not all-pass)");
    const body = { analysis: "odds", game: start.game, hand: `${declarer}=${start.hands[declarer].join(",")}`, lead: start.lead };
    if (start.game === "thousand") {
      body.gave = $("gave").value.trim() || Object.entries(start.gave || {}).map(([s, c]) => `${s}:${c}`).join(",");
      if (start.bid) body.bid = String(start.bid);
    } else {
      body.discard = $("talon").value.trim() || (start.discard || []).join(",");
      body.contract = start.contract;
    }
    await startJob(body, "Declarer's odds over every split of the unseen cards", "splits",
      (result, cancelled) => renderAnalysis(cancelled ? "Declarer's odds (cancelled: partial)" : "Declarer's odds", result));
  });
}

/** Start a job of the API and follow it in the job box; ``show(result, cancelled)`` shows its answer. */
async function startJob(body, title, unit, show) {
  const job = await api("/api/jobs", body);
  state.job = { id: job.id, unit, show };
  $("job").hidden = false;
  $("cancel").disabled = false;
  $("job-title").textContent = title;
  showJob(job);
  followJob(job.id);
}

function showJob(job) {
  const bar = $("job-bar");
  bar.max = job.total || 1;
  bar.value = job.done || 0;
  const share = job.total ? ` (${Math.floor((100 * job.done) / job.total)}%)` : "";
  const what = { queued: "Waiting for a free worker…", running: "Running", done: "Finished",
    cancelled: "Cancelled", failed: "Failed" }[job.state] || job.state;
  const unit = job.unit || (state.job && state.job.unit) || "splits";
  const stage = job.stage && running(job) ? `${job.stage}: ` : "";
  $("job-text").textContent = `${what}: ${stage}${job.done.toLocaleString()} of ${job.total.toLocaleString()} ${unit}${share}`
    + (job.reason && job.state === "cancelled" && job.reason !== "cancelled" ? ` — ${job.reason}` : "");
  $("job").dataset.state = job.state;
}

const jobId = () => state.job && state.job.id;
const running = (job) => ["queued", "running"].includes(job.state);

/** Follow a job by its Server-Sent Events (each change of its progress, the result last); where
 * the stream breaks off before the end, by polling. */
function followJob(id) {
  if (typeof EventSource === "undefined") return pollJob(id);
  const source = new EventSource(`/api/jobs/${id}/events`);
  source.onmessage = (event) => {
    if (jobId() !== id) return source.close();
    const job = JSON.parse(event.data);
    showJob(job);
    if (!running(job)) {
      source.close();
      finishJob(job);
    }
  };
  source.onerror = () => {
    source.close();
    if (jobId() === id) pollJob(id);
  };
}

async function pollJob(id) {
  while (jobId() === id) {
    let job;
    try {
      job = await api(`/api/jobs/${id}`, undefined, "GET");
    } catch (error) {
      showError(error);
      return;
    }
    if (jobId() !== id) return;
    showJob(job);
    if (!running(job)) {
      finishJob(job);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function finishJob(job) {
  const show = state.job && state.job.show;
  state.job = null;
  $("cancel").disabled = true;
  if (job.error) showError(new Error(job.error));
  if (job.result && show) show(job.result, job.state === "cancelled");
}

async function cancelJob() {
  const id = jobId();
  if (!id) return;
  $("cancel").disabled = true;
  try {
    const job = await api(`/api/jobs/${id}`, undefined, "DELETE");
    showJob(job);
    if (!running(job)) finishJob(job);
  } catch (error) {
    showError(error);
  }
}

// -- advice at the table: which card, with the cards one player sees (a job) -------------------

/** The cards played from the start of the play to the position shown. */
const playedSoFar = () => state.moves.concat(state.line.slice(0, state.step));

/** The advise control for the position shown: the player (the one to move by default) and the
 * hands he also sees (checkboxes). */
function renderAdviseControl(position) {
  state.shown = position;
  const box = $("advise-box");
  box.hidden = !position.tricks_left;
  if (box.hidden) return;
  const select = $("advise-seat");
  const seats = SEATS[position.game];
  select.innerHTML = "";
  for (const seat of seats) select.append(new Option(SEAT_NAMES[seat], seat));
  select.value = position.to_move;
  renderSeesBoxes();
}

function renderSeesBoxes() {
  const seat = $("advise-seat").value;
  const box = $("advise-sees");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((input) => input.value));
  box.querySelectorAll("label").forEach((label) => label.remove());
  for (const other of SEATS[state.shown.game].filter((s) => s !== seat)) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="checkbox" value="${other}"${checked.has(other) ? " checked" : ""}> ${SEAT_NAMES[other]}`;
    box.append(label);
  }
}

async function startAdvise() {
  await busy(async () => {
    const seat = $("advise-seat").value;
    const sees = [...$("advise-sees").querySelectorAll("input:checked")].map((input) => input.value);
    const moves = playedSoFar();
    const body = { analysis: "advise", layout: currentText(), moves: moves.join(","), seat, sees: sees.join(",") };
    const title = `Advice for ${SEAT_NAMES[seat]}` + (sees.length ? `, seeing ${sees.map((s) => SEAT_NAMES[s]).join(" and ")}` : "");
    $("analysis").innerHTML = `<h3>${title}</h3><p>Working…</p>`;
    await startJob(body, title, "layouts", (result, cancelled) => showAdvice(title, result, cancelled, moves));
  });
}

/** The declarer's discard at the table: the deal as entered (his twelve cards, the talon in no hand). */
async function startDiscardAdvice() {
  await busy(async () => {
    const start = await api("/api/position", { layout: enteredText(), moves: [] });
    if (!start.declarer) throw new Error("the discard is the declarer's: give a declarer (not all-pass)");
    if ((start.discard || []).length || !(start.talon || []).length) {
      throw new Error("this asks the declarer holding twelve cards: give the talon, not in his hand, and no discard");
    }
    const body = { analysis: "advise", layout: enteredText(), seat: start.declarer };
    const title = `${SEAT_NAMES[start.declarer]}'s discard, seeing neither hand`;
    $("analysis").innerHTML = `<h3>${title}</h3><p>Working…</p>`;
    await startJob(body, title, "layouts", (result, cancelled) => renderDiscardAdvice(cancelled ? `${title} (cancelled: partial)` : title, result));
  });
}

function renderDiscardAdvice(title, data) {
  const word = data.ranked_by.replace(/^p_/, "");
  let html = `<h3>${title}</h3><p>Each discard over the ${data.layouts.toLocaleString()} layouts of the cards he cannot see`
    + `${data.exact ? "" : " (sampled or bounded where the table says)"}; best: <strong>${cards(data.best ? data.best.split(",") : [])}</strong>.`
    + ` Cost: how much less likely than with the best the contract is ${word}.</p>`;
  html += table(["Discard", "Expected tricks", `P(${word})`, "Cost", "How"], Object.entries(data.cards).map(([key, e]) => [
    cards(e.discard) + (key === data.best ? " (best)" : ""),
    e.expected_bounds ? `${number(e.expected_bounds[0], 2)}..${number(e.expected_bounds[1], 2)}`
      : number(e.expected, 3) + (e.interval ? ` ±${number((e.interval[1] - e.interval[0]) / 2, 2)}` : ""),
    e[data.ranked_by] !== null && e[data.ranked_by] !== undefined ? percent(e[data.ranked_by])
      : `≤ ${percent(e[`${data.ranked_by}_bounds`][1])}`,
    e.cost !== null && e.cost !== undefined ? percent(e.cost) : e.cost_at_least !== undefined ? `≥ ${percent(e.cost_at_least)}` : "–",
    e.exact ? `exact (${e.solved.toLocaleString()})` : e.dropped ? "dropped (bounds)" : `sampled (${e.solved.toLocaleString()})`]));
  html += jsonDetails(data, "pref advise --json prints");
  $("analysis").innerHTML = html;
}

const number = (x, digits) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));

function showAdvice(title, data, cancelled, moves) {
  renderAdvice(cancelled ? `${title} (cancelled: partial)` : title, data);
  // Each card's expected value under it on the diagram, when the position is still the one shown.
  if (playedSoFar().join(",") !== moves.join(",")) return;
  const values = {};
  for (const [code, entry] of Object.entries(data.cards)) {
    if (entry.expected !== null && entry.expected !== undefined) values[code] = number(entry.expected, 2);
  }
  busy(() => drawPosition(moves, values));
}

function renderAdvice(title, data) {
  const seat = SEAT_NAMES[data.seat] || data.seat;
  const how = data.exact ? `exact over all ${data.layouts.toLocaleString()} layouts he cannot tell apart`
    : data.method === "sample" ? `sampled: ${data.solved.toLocaleString()} random layouts of ${data.layouts.toLocaleString()} (seed ${data.seed}), 95% intervals`
      : `partial: ${data.layouts.toLocaleString()} layouts, not all solved`;
  let html = `<h3>${title}</h3><p>${seat} to play: ${how}. Values: ${data.counted === data.seat ? "his" : `${SEAT_NAMES[data.counted] || data.counted}'s`} result from here on`
    + (data.best ? `; best card <strong>${cards([data.best])}</strong>` : "") + ".</p>";
  const entries = Object.entries(data.cards);
  const outcomes = [...new Set(entries.flatMap(([, e]) => Object.keys(e.outcomes || {})))];
  const strategy = entries.some(([, e]) => e.strategy !== undefined && e.strategy !== null);
  const sure = entries.some(([, e]) => e.guaranteed !== undefined && e.guaranteed !== null);
  const headers = ["Card", "Expected", "95% interval", ...outcomes.map((o) => `P(${o})`), "Distribution", "Cost"];
  if (strategy) headers.push("One strategy");
  if (sure) headers.push("Sure");
  const rows = entries.map(([code, e]) => {
    const expected = e.expected_bounds ? `${number(e.expected_bounds[0], 2)}..${number(e.expected_bounds[1], 2)}` : number(e.expected, 3);
    const row = [cards([code]) + (e.partial ? " (cut short)" : ""), expected,
      e.interval ? `${number(e.interval[0], 2)}..${number(e.interval[1], 2)}` : "–",
      ...outcomes.map((o) => percent(e.outcomes ? e.outcomes[o] : null)),
      Object.entries(e.distribution).map(([value, p]) => `${value}: ${percent(p)}`).join(", "),
      e.cost === null || e.cost === undefined ? "–" : number(e.cost, 3)];
    if (strategy) row.push(number(e.strategy, 3));
    if (sure) row.push(e.guaranteed ?? "–");
    return { row, best: code === data.best };
  });
  const head = headers.map((h) => `<th>${h}</th>`).join("");
  const body = rows.map(({ row, best }) => `<tr${best ? ' class="best"' : ""}>${row.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("");
  html += `<table class="advice"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  if (data.strategy_note) html += `<p>${escapeHtml(data.strategy_note)}</p>`;
  html += jsonDetails(data, "pref advise --json prints");
  $("analysis").innerHTML = html;
}

// -- mistakes by information: each card of the play judged by what its player knew (a job) -------

async function startByInformation() {
  await busy(async () => {
    const moves = playedSoFar();
    const body = { analysis: "by_information", layout: currentText(), moves: moves.join(",") };
    const title = "The play judged by information";
    $("analysis").innerHTML = `<h3>${title}</h3><p>Working…</p>`;
    await startJob(body, title, "layouts", (result, cancelled) => renderReview(cancelled ? `${title} (cancelled: partial)` : title, result));
  });
}

function renderReview(title, data) {
  const info = data.by_information;
  let html = `<h3>${title}</h3>`;
  if (data.verdict) html += `<p>${escapeHtml(String(data.verdict))}</p>`;
  html += `<p>${info.judged} of ${info.cards} cards judged by what their players knew: ${info.errors.length} error(s), ${info.unlucky.length} unlucky;`
    + ` an error loses more than ${info.threshold} ${info.unit} for his side on average.${info.interrupted ? " <strong>Partial:</strong> stopped before the end." : ""}</p>`;
  html += table(["Trick", "Player", "Card", "Double dummy", "By information", "Cost", "Expected", "Best", "Layouts"],
    info.steps.map((step) => [step.trick, SEAT_NAMES[step.seat] || step.seat, cards([step.card]),
      step.dd_changed ? "changed the result" : "–",
      `<span class="verdict-${step.verdict}">${step.verdict}</span>`,
      step.verdict === "forced" ? "–" : number(step.cost, 2),
      step.verdict === "forced" ? "–" : number(step.expected, 2),
      step.best ? cards([step.best]) : "–",
      step.layouts === null ? "–" : `${step.layouts.toLocaleString()}${step.exact ? "" : " (sampled)"}`]));
  html += jsonDetails(data, "pref contract … --by-information --json prints");
  $("analysis").innerHTML = html;
}

// -- start ------------------------------------------------------------------------------------

async function loadText(text, moves = []) {
  state.text = state.entered = text.trim();
  state.moves = moves;
  state.line = [];
  state.step = 0;
  state.position = null;
  $("analysis").innerHTML = "";
  await solveCurrent();
}

function wire() {
  $("game").addEventListener("change", () => { state.text = state.entered = null; setGame($("game").value); });
  for (const id of ["contract", "declarer", "lead"]) {
    $(id).addEventListener("change", () => { state.text = state.entered = null; });
  }
  $("contract").addEventListener("input", refreshAnalyses);
  $("clear").addEventListener("click", () => {
    state.owners = new Map();
    state.text = state.entered = null;
    renderTargets();
    renderDeck();
  });
  $("solve").addEventListener("click", () => {
    state.text = state.entered;  // from the deal as entered (null: the picker's, composed)
    state.moves = [];
    state.position = null;
    $("analysis").innerHTML = "";
    solveCurrent();
  });
  $("load").addEventListener("click", () => loadText($("paste").value));
  $("first").addEventListener("click", () => stepTo(0));
  $("back").addEventListener("click", () => stepTo(state.step - 1));
  $("forward").addEventListener("click", () => stepTo(state.step + 1));
  $("last").addEventListener("click", () => stepTo(state.line.length));
  $("undo").addEventListener("click", () => { state.moves = []; solveCurrent(); });
  $("diagram").addEventListener("click", playClicked);
  $("cancel").addEventListener("click", cancelJob);
  $("advise").addEventListener("click", startAdvise);
  $("advise-seat").addEventListener("change", renderSeesBoxes);
  for (const button of document.querySelectorAll("#analyses button")) {
    button.addEventListener("click", () => runAnalysis(button.dataset.analysis));
  }
}

wire();
setGame("preferans");
const params = new URLSearchParams(location.search);
if (params.get("layout")) {
  const moves = (params.get("moves") || "").split(",").filter(Boolean);
  loadText(params.get("layout"), moves);
}
