// The Print Center's page: printers and this user's jobs, kept up to date by the server's
// event stream; cancel. Every word shown comes from strings.<lang>.json (one place, so that a
// translation is one more file). The token of the page's address goes with every request.
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
let strings = {};

function say(key, values = {}) {
  const text = strings[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: { "X-SwiftPrint-Token": token, ...(options.headers || {}) } });
  if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
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
      facts));
  }
}

function showJobs(jobs) {
  const body = document.querySelector("#jobs tbody");
  body.replaceChildren();
  document.getElementById("no-jobs").hidden = jobs.length !== 0;
  for (const job of jobs) {
    const cancel = job.state === "completed" || job.state === "cancelled" || job.state === "aborted" ? null
      : element("button", { type: "button", "aria-label": say("cancelJob", { id: job.id }), "data-cancel": job.id, text: say("cancel") });
    const state = say("job." + job.state) + (job.message && job.state !== "completed" ? " — " + job.message : "");
    body.append(element("tr", { "data-job": job.id, "data-state": job.state },
      element("td", { text: String(job.id) }), element("td", { text: job.printer }), element("td", { class: "state", text: state }),
      element("td", { text: String(job.impressionsCompleted) }), element("td", { text: job.title }), element("td", {}, cancel)));
  }
}

function listen() {
  const all = document.getElementById("show-finished").checked ? "1" : "0";
  const events = new EventSource("/api/events?all=" + all + "&token=" + encodeURIComponent(token));
  // The status line keeps what the user last did ("Job 12 cancelled."); an update says "up to
  // date" only after the stream was lost.
  let lost = false;
  events.addEventListener("jobs", event => { showJobs(JSON.parse(event.data)); if (lost) { status(say("live")); lost = false; } });
  events.onerror = () => { lost = true; status(say("reconnecting")); };
  return events;
}

async function start() {
  strings = await (await fetch("/strings.en.json")).json();
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = say(node.dataset.text);
  document.title = say("title");
  let events = listen();
  document.getElementById("show-finished").addEventListener("change", () => { events.close(); events = listen(); });
  document.querySelector("#jobs tbody").addEventListener("click", async event => {
    const id = event.target.dataset && event.target.dataset.cancel;
    if (!id) return;
    try { await api("/api/jobs/" + id + "/cancel", { method: "POST" }); status(say("cancelled", { id })); }
    catch (error) { status(say("cannotCancel", { id, why: error.message })); }
  });
  try { showPrinters(await api("/api/printers")); } catch (error) { status(error.message); }
}

start();
