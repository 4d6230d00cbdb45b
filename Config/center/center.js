// The Print Center's page: files to print (typed, previewed and printed by swiftprint with the
// options of a form made from its option declarations), printers, and this user's jobs, kept
// up to date by the server's event stream; cancel. Every word shown comes from
// strings.<lang>.json (one place, so that a translation is one more file). The token of the
// page's address goes with every request.
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
let strings = {};
let printers = [];
let form = [];
// Where a printer's own list narrows an option's choices (its capabilities, as CUPS gives them).
const printerChoices = { "media": "media", "sides": "sides", "print-color-mode": "colorModes" };

function say(key, values = {}) {
  const text = strings[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { "X-SwiftPrint-Token": token, ...(options.headers || {}) } });
  if (!response.ok) {
    // The server's reason: {"error": {"message": …}}, or plain text (a refusal).
    const text = (await response.text()).trim();
    let why = text;
    try { why = JSON.parse(text).error.message; } catch (_) {}
    throw new Error(why || response.statusText);
  }
  return response.status === 204 ? null : response.json();
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value; else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function status(text) { document.getElementById("status").textContent = text; }

function showPrinters(printers) {
  const list = document.getElementById("printers");
  list.replaceChildren();
  if (printers.length === 0) list.append(element("li", { text: say("noPrinters") }));
  for (const p of printers) {
    const caps = p.capabilities || {};
    const facts = element("dl");
    for (const [key, values, first] of [["media", caps.media, caps.defaultMedia], ["sides", caps.sides], ["colour", caps.colorModes],
                                        ["resolutions", caps.resolutions], ["formats", caps.documentFormats]]) {
      if (!values || !values.length) continue;
      // Long lists (a queue of every paper) fold away behind their first or default value.
      const shown = values.length <= 4 ? element("dd", { text: values.join(", ") })
        : element("dd", {}, element("details", {}, element("summary", { text: say("andMore", { first: first || values[0], count: values.length - 1 }) }),
                                    element("p", { text: values.join(", ") })));
      facts.append(element("dt", { text: say(key) }), shown);
    }
    const badges = [p.isDefault ? say("default") : null, p.swiftprintQueue ? say("swiftprintQueue") : null].filter(Boolean);
    list.append(element("li", { class: "card", "data-printer": p.name },
      element("h3", { text: p.name + (badges.length ? " (" + badges.join(", ") + ")" : "") }),
      element("p", { class: "state", text: say("state." + p.state) + (p.stateReasons.filter(r => r !== "none").length ? " — " + p.stateReasons.join(", ") : "") }),
      p.info ? element("p", { text: p.info }) : null,
      facts, showSupplies(p.supplies || [])));
  }
}

// Toner, ink and waste boxes as CUPS last heard them: a swatch of each colour, a meter, and the
// level in words (with "low" or "nearly full" where the printer's own thresholds say so).
function showSupplies(supplies) {
  if (!supplies.length) return null;
  const list = element("ul", { class: "supplies", "aria-label": say("supplies") });
  for (const s of supplies) {
    const swatches = element("span", { class: "swatches", "aria-hidden": "true" });
    for (const colour of (s.color || "").match(/#[0-9A-Fa-f]{6}/g) || []) {
      const swatch = element("span", { class: "swatch" });
      swatch.style.background = colour;
      swatches.append(swatch);
    }
    // The server says which levels need attention (low, nearly-full), by the printer's thresholds.
    // A waste box fills: its level is how full, its "some remaining" is room, and its meter
    // warns at the high end (a consumable's at the low end).
    const receptacle = s.isReceptacle;
    const words = (s.level != null ? say("supplyLevel", { level: s.level })
                   : say(s.someRemaining ? (receptacle ? "supplySomeRoom" : "supplySome") : "supplyUnknown"))
      + (s.attention ? " (" + say("supply." + s.attention) + ")" : "");
    const meter = s.level == null ? null : element("meter", { min: "0", max: "100", value: String(s.level), "aria-label": s.name,
      ...(receptacle ? { high: String(s.highLevel ?? 100), optimum: "0" } : { low: String(s.lowLevel ?? 0), optimum: "100" }) });
    list.append(element("li", Object.assign({ "data-supply": s.name }, s.attention ? { class: "attention" } : {}),
      swatches, element("span", { class: "name", text: s.name }), meter || element("span"), element("span", { class: "level", text: words })));
  }
  return list;
}

function showJobs(jobs) {
  const body = document.querySelector("#jobs tbody");
  body.replaceChildren();
  document.getElementById("no-jobs").hidden = jobs.length !== 0;
  for (const job of jobs) {
    const finished = job.state === "completed" || job.state === "cancelled" || job.state === "aborted";
    const button = action => element("button", { type: "button", "aria-label": say(action + "Job", { id: job.id }), ["data-" + action]: job.id, text: say(action) });
    const actions = element("span", { class: "actions" }, job.state === "pending" ? button("hold") : null,
                            job.state === "held" ? button("release") : null, finished ? null : button("cancel"));
    const state = say("job." + job.state) + (job.message && job.state !== "completed" ? " — " + job.message : "");
    body.append(element("tr", { "data-job": job.id, "data-state": job.state },
      element("td", { text: String(job.id) }), element("td", { text: job.printer }), element("td", { text: job.user }), element("td", { class: "state", text: state }),
      element("td", { text: String(job.impressionsCompleted) }), element("td", { text: job.title }), element("td", {}, actions)));
  }
}

// One file on the page: its facts, the printer, the form of its options, its sides.
function showUpload(file) {
  const item = element("li", { class: "upload", "data-upload": file.id });
  const facts = element("p", { class: "facts" });
  const sides = element("div", { class: "sides", "aria-live": "polite", "aria-label": say("preview") });
  const printer = element("select", { id: "printer-" + file.id, "data-printer-choice": "" });
  for (const p of printers) printer.append(element("option", Object.assign({ value: p.name, text: p.name }, p.isDefault ? { selected: "" } : {})));
  const print = element("button", { type: "button", "data-print": file.id, text: say("print") });
  const remove = element("button", { type: "button", "data-remove": file.id, text: say("remove") });
  const fields = element("div", { class: "form" });
  item.append(element("h3", { text: file.name }), facts,
    element("div", { class: "row" }, element("label", { for: printer.id, text: say("printOn") }), printer, print, remove),
    sides, element("details", {}, element("summary", { text: say("options") }), fields));

  const values = () => {
    const chosen = {};
    for (const input of fields.querySelectorAll("[data-flag]")) if (input.value !== "") chosen[input.dataset.flag] = input.value;
    return chosen;
  };
  const showSides = preview => {
    facts.textContent = preview.total === 1 ? say("fileFacts1", { type: file.mime }) : say("fileFacts", { type: file.mime, sides: preview.total });
    const more = preview.total - preview.sides.length;
    sides.replaceChildren(...preview.sides.map((url, n) => element("img", { src: url, alt: say("sideAlt", { side: n + 1, name: file.name }) })),
                          more > 0 ? element("p", { class: "note", text: say("moreSides", { shown: preview.sides.length, more }) }) : null);
    sides.dataset.sides = String(preview.total);
  };
  // Only the newest preview asked for is shown, however the answers arrive.
  // A choice made (change) is drawn at once; typing (input) waits for a pause of 250 ms. Once
  // the file is printed or removed, an answer still on its way is dropped: the status line
  // keeps what the user last did.
  let asked = 0, timer = null, gone = false, previewError = null;
  const drawing = new Set();
  const refresh = (pause = 0) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const one = draw();
      drawing.add(one);
      one.finally(() => drawing.delete(one));
    }, pause);
  };
  // Every preview asked for and not yet answered.
  const drawn = () => { clearTimeout(timer); return Promise.allSettled([...drawing]); };
  const draw = async () => {
    const mine = ++asked;
    sides.setAttribute("aria-busy", "true");
    try {
      const preview = await api("/api/files/" + file.id + "/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ options: values() }) });
      if (mine === asked && !gone) {
        showSides(preview);
        if (previewError !== null && document.getElementById("status").textContent === previewError) status("");
        previewError = null;
      }
    } catch (error) {
      if (mine === asked && !gone) { previewError = say("cannotPreview", { why: error.message }); status(previewError); }
    } finally {
      if (mine === asked) sides.removeAttribute("aria-busy");
    }
  };
  const build = () => {
    const caps = (printers.find(p => p.name === printer.value) || {}).capabilities || {};
    const kept = values();
    fields.replaceChildren();
    for (const group of form) {
      if (group.handlers.length && !group.handlers.includes(file.handler)) continue;
      const set = element("fieldset", {}, element("legend", { text: group.title }));
      for (const option of group.options) {
        const id = "o-" + file.id + "-" + option.flag;
        let input;
        if (option.kind === "value") {
          // A count (its example a whole number) gets a number field; anything else, text.
          const count = /^[0-9]+$/.test(option.example);
          input = element("input", Object.assign({ id, type: count ? "number" : "text", placeholder: option.example, value: kept[option.flag] || "" },
                                                 count ? { min: "1", step: "1" } : {}));
        } else {
          const own = printerChoices[option.name] && caps[printerChoices[option.name]];
          const choices = option.kind === "switch" ? ["on", "off"] : (own && own.length ? own : option.choices);
          input = element("select", { id }, element("option", { value: "", text: say("choiceStandard") }),
                          ...choices.map(c => element("option", { value: c, text: option.kind === "switch" ? say(c) : c })));
          input.value = choices.includes(kept[option.flag]) ? kept[option.flag] : "";
        }
        input.dataset.flag = option.flag;
        input.setAttribute("aria-describedby", id + "-help");
        set.append(element("div", {}, element("label", { for: id, text: option.flag }), input,
                           element("span", { id: id + "-help", class: "note", text: option.help + (option.standard ? " (" + say("standard", { value: option.standard }) + ")" : "") })));
      }
      fields.append(set);
    }
  };
  fields.addEventListener("change", () => refresh());
  fields.addEventListener("input", event => { if (event.target.tagName === "INPUT") refresh(250); });
  printer.addEventListener("change", () => { build(); refresh(); });
  print.addEventListener("click", async () => {
    print.disabled = true;
    // What is printed is what the preview shows: a preview being drawn ends first.
    await drawn();
    try {
      const reply = await api("/api/files/" + file.id + "/print", { method: "POST", headers: { "Content-Type": "application/json" },
                                                                    body: JSON.stringify({ printer: printer.value, options: values() }) });
      gone = true;
      status(say("sent", { name: file.name, job: reply.job, printer: printer.value }));
      item.remove();
    } catch (error) { status(say("cannotPrint", { why: error.message })); print.disabled = false; }
  });
  remove.addEventListener("click", async () => {
    gone = true;
    await drawn();
    try { await api("/api/files/" + file.id, { method: "DELETE" }); } catch (error) { status(error.message); }
    item.remove();
  });
  build();
  showSides(file.preview);
  document.getElementById("uploads").append(item);
}

async function upload(files) {
  for (const file of files) {
    status(say("uploading", { name: file.name }));
    try {
      const reply = await api("/api/files", { method: "POST", headers: { "X-SwiftPrint-File-Name": encodeURIComponent(file.name) }, body: file });
      showUpload(reply);
      status("");
    } catch (error) { status(say("cannotUpload", { why: error.message })); }
  }
}

// The save-as-PDF queues' files of this user's, each with its first page drawn small.
let savedShown = null;
async function showSaved() {
  let saved = [];
  try { saved = await api("/api/saved"); } catch (error) { status(error.message); return; }
  // Drawn again only when the list changed (each thumbnail is a drawing of its first page).
  if (JSON.stringify(saved) === savedShown) return;
  savedShown = JSON.stringify(saved);
  const list = document.getElementById("saved");
  document.getElementById("no-saved").hidden = saved.length !== 0;
  const query = "?token=" + encodeURIComponent(token);
  list.replaceChildren(...saved.map(file => {
    const size = file.bytes >= 1048576 ? (file.bytes / 1048576).toFixed(1) + " MB" : Math.max(1, Math.round(file.bytes / 1024)) + " KB";
    const remove = element("button", { type: "button", "data-delete-saved": file.id, "aria-label": say("deleteSaved", { name: file.name }), text: say("delete") });
    remove.addEventListener("click", async () => {
      try { await api("/api/saved/" + file.id, { method: "DELETE" }); status(say("deleted", { name: file.name })); await showSaved(); }
      catch (error) { status(error.message); }
    });
    return element("li", { class: "card saved", "data-saved": file.id },
      element("img", { src: "/api/saved/" + file.id + "/thumbnail" + query, alt: say("thumbnailOf", { name: file.name }) }),
      element("h3", { text: file.name }),
      element("p", { text: say("savedFacts", { queue: file.queue, size, date: new Date(file.saved).toLocaleString() }) }),
      element("p", { class: "row" },
        element("a", { href: "/api/saved/" + file.id + query, target: "_blank", rel: "noopener", "aria-label": say("openSaved", { name: file.name }), text: say("open") }),
        element("a", { href: "/api/saved/" + file.id + query + "&download=1", download: file.name, "aria-label": say("downloadSaved", { name: file.name }), text: say("download") }),
        remove));
  }));
}

function listen() {
  const all = document.getElementById("show-finished").checked ? "1" : "0";
  // Every user's jobs: offered to CUPS's administrators only (the server refuses others).
  const users = document.getElementById("all-users").checked ? "&users=all" : "";
  const events = new EventSource("/api/events?all=" + all + users + "&token=" + encodeURIComponent(token));
  // The status line keeps what the user last did ("Job 12 cancelled."); an update says "up to
  // date" only after the stream was lost.
  let lost = false;
  // A job that ends may have saved a PDF: the list is read again whenever the jobs change.
  events.addEventListener("jobs", event => { showJobs(JSON.parse(event.data)); showSaved(); if (lost) { status(say("live")); lost = false; } });
  events.onerror = () => { lost = true; status(say("reconnecting")); };
  return events;
}

async function start() {
  strings = await (await fetch("/strings.en.json")).json();
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = say(node.dataset.text);
  document.title = say("title");
  try { document.getElementById("all-users-choice").hidden = !(await api("/api/me")).administrator; } catch (error) { status(error.message); }
  let events = listen();
  for (const box of ["show-finished", "all-users"]) document.getElementById(box).addEventListener("change", () => { events.close(); events = listen(); });
  document.querySelector("#jobs tbody").addEventListener("click", async event => {
    const data = event.target.dataset || {};
    const action = ["cancel", "hold", "release"].find(a => data[a]);
    if (!action) return;
    const id = data[action];
    try { await api("/api/jobs/" + id + "/" + action, { method: "POST" }); status(say(action + "Done", { id })); }
    catch (error) { status(say(action + "Failed", { id, why: error.message })); }
  });
  document.getElementById("cancel-all").addEventListener("click", async () => {
    try { const reply = await api("/api/jobs/cancel-all", { method: "POST" }); status(say("cancelAllDone", { count: reply.cancelled.length })); }
    catch (error) { status(error.message); }
  });
  try { printers = await api("/api/printers"); showPrinters(printers); } catch (error) { status(error.message); }
  try { form = await api("/api/form"); } catch (error) { status(error.message); }
  const input = document.getElementById("files"), drop = document.getElementById("drop");
  input.addEventListener("change", () => { upload([...input.files]); input.value = ""; });
  drop.addEventListener("dragover", event => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", event => { event.preventDefault(); drop.classList.remove("over"); upload([...event.dataTransfer.files]); });
}

start();
