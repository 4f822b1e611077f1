// A seat's page: it draws the views the server sends and sends back the answers clicked.
"use strict";
const token = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PIECE_COLOURS = ["#1e8449", "#7d3c98", "#b9770e", "#117a65"];
let socket = null;
let board = null;
let view = null;
let picked = new Set();
let retry = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const narrow = window.innerWidth < 600 ? "?narrow=1" : "";  // panels a phone can show
  socket = new WebSocket(`${scheme}://${location.host}/ws/${token}${narrow}`);
  socket.onopen = () => { retry = 500; $("link-state").textContent = ""; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "board") drawBoard(message);
    else if (message.type === "view") draw(message);
    else if (message.type === "error") showError(message.message);
  };
  socket.onclose = () => {
    $("link-state").textContent = "Not connected: trying again…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function send(answer) {
  if (!view || !view.question || !socket || socket.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ ask: view.question.ask, answer }));
  for (const button of document.querySelectorAll("#ask button")) button.disabled = true;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = false;
  for (const button of document.querySelectorAll("#ask button")) button.disabled = false;
}

function button(option, onClick) {
  const made = document.createElement("button");
  made.type = "button";
  made.dataset.id = option.id;
  if (option.text) {
    made.className = "card";
    const name = document.createElement("strong");
    name.textContent = option.label;
    const text = document.createElement("small");
    text.textContent = option.text;
    made.append(name, text);
  } else {
    made.textContent = option.label;
  }
  made.addEventListener("click", onClick);
  return made;
}

function drawBoard(message) {
  board = message;
  if (!message.svg) return;
  $("map").hidden = false;
  $("map").innerHTML = message.svg;  // drawn by the server from the pack's map, escaped there
  const svg = $("map").querySelector("svg");
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const layer = document.createElementNS(SVG, "g");
  layer.id = "overlay";
  svg.append(layer);
  if (view) drawMap(view);
}

function circle(x, y, r, className) {
  const made = document.createElementNS(SVG, "circle");
  made.setAttribute("cx", x);
  made.setAttribute("cy", y);
  made.setAttribute("r", r);
  made.setAttribute("class", className);
  return made;
}

function drawMap(current) {
  const layer = document.getElementById("overlay");
  if (!board || !layer) return;
  layer.replaceChildren();
  for (const node of current.maybe) {
    const at = board.places[node];
    if (at) layer.append(circle(at[0], at[1], 13, "maybe"));
  }
  current.pieces.forEach((piece, i) => {
    const at = board.places[piece.node];
    if (!at) return;
    const dot = circle(at[0], at[1], 10, "piece");
    dot.setAttribute("fill", PIECE_COLOURS[i % PIECE_COLOURS.length]);
    const name = document.createElementNS(SVG, "text");
    name.setAttribute("x", at[0] + 12);
    name.setAttribute("y", at[1] - 12);
    name.setAttribute("class", "piece-name");
    name.textContent = piece.name;
    layer.append(dot, name);
  });
  const question = current.question;
  for (const option of question ? question.options : []) {
    const at = option.node && board.places[option.node];
    if (!at) continue;
    const target = circle(at[0], at[1], 16, "target");
    target.dataset.id = option.id;
    const title = document.createElementNS(SVG, "title");
    title.textContent = option.label;
    target.append(title);
    target.addEventListener("click", () => send(option.id));
    layer.append(target);
  }
}

function focusMap(current) {
  // On a narrow screen the map scrolls sideways: bring what matters now into view.
  const map = $("map");
  const svg = map.querySelector("svg");
  if (!board || !svg || map.scrollWidth <= map.clientWidth) return;
  const question = current.question;
  const targets = (question ? question.options : []).map((option) => option.node)
    .filter((node) => node);
  const nodes = targets.length ? targets
    : current.pieces.map((piece) => piece.node).concat(current.maybe);
  const xs = nodes.map((node) => board.places[node]).filter((at) => at).map((at) => at[0]);
  if (!xs.length) return;
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const middle = (Math.min(...xs) + Math.max(...xs)) / 2 * scale;
  map.scrollLeft = middle - map.clientWidth / 2;
}

function drawPicker(question) {
  $("picker").dataset.range = `${question.min} ${question.max}`;
  const items = $("items");
  items.replaceChildren();
  for (const item of question.items) {
    const made = button(item, () => {
      if (picked.has(item.id)) picked.delete(item.id); else picked.add(item.id);
      made.setAttribute("aria-pressed", picked.has(item.id));
      updateSubmit(question);
    });
    made.setAttribute("aria-pressed", picked.has(item.id));  // kept while the question stays
    items.append(made);
  }
  $("submit").onclick = () => {
    const chosen = question.items.map((item) => item.id).filter((id) => picked.has(id));
    send(chosen.length ? chosen.join("+") : "none");
  };
  updateSubmit(question);
}

function updateSubmit(question) {
  const count = picked.size;
  if (!question.items.length) {
    $("submit").textContent = "Go on (nothing to choose)";
    $("submit").disabled = question.min > 0;
    return;
  }
  const room = question.min === question.max ? `${question.min}`
    : `${question.min} to ${question.max}`;
  $("submit").textContent = count ? `Choose these ${count} (${room} allowed)`
    : `Choose none (${room} allowed)`;
  $("submit").disabled = count < question.min || count > question.max;
}

function drawClosed(closed) {
  $("closed").hidden = !closed.length;
  const names = closed.map((item) => item.label).join(", ");
  $("closed").querySelector("summary").textContent = `Not open now: ${names} (why?)`;
  $("closed").querySelector("ul").replaceChildren(...closed.map((item) => {
    const line = document.createElement("li");
    line.textContent = item.why || `${item.label}: the rules refuse it now.`;
    return line;
  }));
}

function draw(current) {
  const question = current.question;
  const fresh = !view || !view.question || !question || view.question.ask !== question.ask;
  const focus = !view || (question && fresh);  // the first view, or a new question
  view = current;
  $("heading").textContent = current.heading;
  const pack = board ? board.pack : "rulekit";  // another tab shows when it is your turn
  document.title = question ? `(Your turn) ${pack}` : pack;
  $("panels").textContent = current.panels;
  $("result").hidden = !current.result;
  $("result").textContent = current.result || "";
  if (fresh) { $("error").hidden = true; picked = new Set(); }
  $("prompt").textContent = question ? question.prompt
    : current.role === null ? "You are watching." : "";
  $("context").textContent = question && question.context ? question.context : "";
  drawClosed(question ? question.closed : []);
  const options = $("options");
  options.replaceChildren();
  for (const option of question ? question.options : []) {
    options.append(button(option, () => send(option.id)));
  }
  $("picker").hidden = !(question && question.kind === "subset");
  if (question && question.kind === "subset") drawPicker(question);
  const others = current.waiting_for.join(" and ");
  $("waiting").textContent = current.result ? "" : question ? "" : others ? `Waiting for ${others}…` : "";
  const log = $("log");
  log.replaceChildren(...current.log.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  log.scrollTop = log.scrollHeight;
  drawMap(current);
  if (focus) focusMap(current);
}

connect();
